"""No request gets a 500, whatever its path, query, body or headers: every route of the site
(found by the URL resolver, so new pages are covered) gets generated hostile values. The
API's schema-driven fuzzing is tests/api/test_schemathesis.py; this covers the HTML pages and
everything off the schema (NUL bytes, huge numbers, repeated parameters, broken bodies)."""

from urllib.parse import quote

import pytest
from django.test import Client
from games_support import human_log, text
from hostile_requests import BODIES, PARAMETERS, SEGMENTS, VALUES, HostileRequest, fill
from hostile_requests import route_templates as site_routes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

ROUTES = site_routes()
segments = st.one_of(
    st.sampled_from(SEGMENTS),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(min_size=1, max_size=30).map(lambda t: quote(t, safe="")),
)
values = st.one_of(
    st.sampled_from(VALUES),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.text(max_size=40).map(lambda t: quote(t, safe="")),
)
queries = st.lists(
    st.tuples(st.one_of(st.sampled_from(PARAMETERS), st.text(min_size=1, max_size=8)), values),
    max_size=4,
).map(lambda pairs: "&".join(f"{quote(name, safe='[]')}={value}" for name, value in pairs))
bodies = st.one_of(
    st.sampled_from(BODIES),
    st.tuples(
        st.binary(max_size=300),
        st.sampled_from(["application/json", "application/jsonl", "multipart/form-data"]),
    ),
)
requests = st.builds(
    lambda route, segment, method, query, body: HostileRequest(
        method, fill(route, segment), query, *body
    ),
    st.sampled_from(ROUTES),
    segments,
    st.sampled_from(["GET", "GET", "POST", "PUT", "DELETE"]),
    queries,
    bodies,
)


@pytest.fixture
def staff_client(django_user_model, django_capture_on_commit_callbacks):
    """Signed in as staff (every page open to it), CSRF unchecked (the test client's default),
    with one verified game stored so ids point at something."""
    from games.services.intake import submit_log

    with django_capture_on_commit_callbacks(execute=True):
        submit_log(text(human_log(seed=500)), user=None)
    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_user("fuzz", is_staff=True))
    return client


def test_every_route_is_covered():
    assert "/games/{log_id}/" in ROUTES
    assert "/api/logs/{pk}/" in ROUTES
    assert "/players/{handle}/" in ROUTES
    assert len(ROUTES) >= 30


@given(request=requests)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_generated_request_gets_a_server_error(staff_client, request):
    response = request.send(staff_client)

    assert response.status_code < 500, (request, response.content[:500])


@pytest.mark.parametrize(
    "url",
    [
        "/players/%00/",
        "/games/99999999999999999999999/",
        "/games/?player=%00",
        "/api/games/?cursor=99999999999999999999",
        "/api/logs/99999999999999999999999/",
    ],
)
def test_known_hostile_urls_get_a_4xx_page_naming_the_problem(staff_client, url):
    response = staff_client.get(url)

    assert 400 <= response.status_code < 500
    if url.startswith("/api/"):
        assert response.json()["detail"]
    else:
        assert b'<p class="error" role="alert">' in response.content or response.status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "/leaderboards/deep-vents/?since=2024-13-45",
        "/leaderboards/deep-vents/?format=csv&until=9999-99-99",
        "/stats/strategies/?game=deep-vents&min_sample=99999999999999999999999",
        "/stats/hexes/?since=2024-13&sort=%00x",
    ],
)
def test_filters_a_page_cannot_use_are_ignored_without_a_server_error(staff_client, url):
    response = staff_client.get(url)

    assert response.status_code in (200, 400)
