"""The site's own versions of allauth's forms (registered in settings.ACCOUNT_FORMS)."""

from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm


class SignInForm(LoginForm):
    """allauth's sign-in form, its login field marked as a username for password managers.

    Sign-in takes a username or an e-mail address (ACCOUNT_LOGIN_METHODS), for which allauth
    marks the field autocomplete="email"; phones' password managers then offer no saved
    login, since the site saves credentials under the username. The password keeps
    allauth's "current-password".
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].widget.attrs["autocomplete"] = "username"
