"""The header at a desktop width (1280 px) keeps the site's name and its whole menu on one row
for whoever is signed in: staff (an "Admin" link more, in the account menu), a long username,
games to confirm and unread notices."""

import pytest
from django_fixtures import signed_in_as

from notices.models import Kind
from notices.services import notify

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The tops of the brand and of every item of the menu, in the header's one row or not.
ROW_TOPS = """() => Array.from(document.querySelectorAll(
    '.site-header .brand, .site-header .site-menu > li'))
    .map((element) => element.getBoundingClientRect().top)"""


def test_the_header_is_one_row_for_staff_with_a_long_name_and_things_waiting(
    browser, live_server, django_user_model
):
    staff = django_user_model.objects.create_user("anneliese-ostergaard-lindqvist", is_staff=True)
    notify(staff, Kind.ANALYSIS, "Analysis ready: Deep Vents, 3 Dec 2026: Marina, Nemo, Coral", "")
    client = signed_in_as(staff)
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(live_server.url + "/")

    tops = page.evaluate(ROW_TOPS)
    assert max(tops) - min(tops) < 16, tops
    summary = page.locator(".account-menu summary")
    assert summary.get_attribute("title") == "Signed in as anneliese-ostergaard-lindqvist"
    summary.click()
    assert page.locator(".account-menu a[href='/admin/']").is_visible()
