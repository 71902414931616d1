"""The inbox: a signed-in user's own notices, marking them read, and the e-mail preferences.
Another user's notice is a 404, as if it did not exist."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from notices import services
from notices.forms import PreferencesForm

PAGE_SIZE = 50


@require_GET
@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    page = Paginator(services.inbox(request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "notices/inbox.html",
        {"page": page, "unread": services.unread_count(request.user)},
    )


@require_GET
@login_required
def open_notice(request: HttpRequest, notice_id: int) -> HttpResponseRedirect:
    """Follow a notice to what it is about; it is read from then on."""
    notice = services.mark_read(request.user, notice_id)
    if notice is None:
        raise Http404(f"no notice {notice_id} in your inbox")
    safe = url_has_allowed_host_and_scheme(notice.url, {request.get_host()}, request.is_secure())
    return HttpResponseRedirect(notice.url if safe and notice.url else reverse("notices:inbox"))


@require_POST
@login_required
def mark_read(request: HttpRequest, notice_id: int) -> HttpResponseRedirect:
    if services.mark_read(request.user, notice_id) is None:
        raise Http404(f"no notice {notice_id} in your inbox")
    return redirect("notices:inbox")


@require_POST
@login_required
def mark_all_read(request: HttpRequest) -> HttpResponseRedirect:
    count = services.mark_all_read(request.user)
    messages.success(request, f"{count} notice{'s' if count != 1 else ''} marked read.")
    return redirect("notices:inbox")


@require_http_methods(["GET", "POST"])
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, initial=services.preferences_of(request.user))
    if request.method == "POST" and form.is_valid():
        services.set_preferences(request.user, form.cleaned_data)
        messages.success(request, "Your e-mail preferences are saved.")
        return redirect("notices:preferences")
    status = 400 if request.method == "POST" else 200
    return render(request, "notices/preferences.html", {"form": form}, status=status)
