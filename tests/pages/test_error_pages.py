"""Errors a client causes are answered in the site's own layout (HTML) or as JSON under
/api/, naming the problem; a server error has its own page too, drawn without the database."""

import pytest
from django.test import Client
from django.urls import path

from deepsea import urls as site_urls

pytestmark = pytest.mark.django_db


def broken_view(request):
    raise RuntimeError("a bug")


urlpatterns = [*site_urls.urlpatterns, path("broken/", broken_view)]
handler400, handler403, handler404, handler500 = (
    site_urls.handler400,
    site_urls.handler403,
    site_urls.handler404,
    site_urls.handler500,
)


def test_a_missing_page_is_the_sites_404_page_naming_the_path(client):
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert b'aria-label="Main"' in response.content
    assert b"nothing at /no/such/page/" in response.content


def test_a_missing_api_path_is_json_naming_the_path(client):
    response = client.get("/api/nothing-here/")

    assert response.status_code == 404
    assert response.json() == {"detail": "nothing at /api/nothing-here/"}


def test_a_nul_byte_in_the_url_is_the_sites_400_page(client):
    response = client.get("/players/%00/")

    assert response.status_code == 400
    assert b"<h1>Bad request</h1>" in response.content
    assert b"the URL contains a NUL byte" in response.content


@pytest.mark.parametrize(
    "url", ["/games/99999999999999999999999/", "/uploads/99999999999999999999/"]
)
def test_an_id_beyond_64_bits_is_a_404_not_a_500(client, url):
    response = client.get(url)

    assert response.status_code == 404
    assert b'aria-label="Main"' in response.content


def test_a_server_error_has_the_sites_500_page(settings):
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False

    response = Client(raise_request_exception=False).get("/broken/")

    assert response.status_code == 500
    assert b"<h1>Server error</h1>" in response.content
    assert b'aria-label="Main"' in response.content
