"""The account's web pages, rendered on the server (plain forms, no script): confirm an address, ask for
and follow a password reset link, close the account. Each calls the same service as its REST endpoint."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.address import email_confirm
from accounts.deletion import DELETED_NAME, NAME_HELD_DAYS, account_delete
from accounts.notices import kind_name
from accounts.notices import unsubscribe as unsubscribe_kind
from accounts.reset import RESET_SENT, reset_confirm, reset_request
from common.errors import Refused, status_for
from players.identity import client_address, session_player


class ResetRequestForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Username or email address"), max_length=254)


class NewPasswordForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("New password"), widget=forms.PasswordInput, max_length=128)


class CloseForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), widget=forms.PasswordInput, max_length=128)
    sure = forms.BooleanField(label=format_lazy(
        gettext_lazy('I understand: my account closes for good, my games stay as "{name}"'), name=DELETED_NAME))


def _message(request: HttpRequest, title: str, text: str, *, status: int = 200) -> HttpResponse:
    return render(request, "accounts/message.html", {"page": "account", "title": title, "text": text}, status=status)


def _form(request: HttpRequest, title: str, form: forms.Form, *, submit: str, intro: str = "", error: str = "",
          export: bool = False, status: int = 200) -> HttpResponse:
    """A page of one form; ``submit`` is its button's label, ``export`` adds the data export's link."""
    response = render(request, "accounts/form.html",
                      {"page": "account", "title": title, "form": form, "intro": intro, "error": error,
                       "submit": submit, "export": export}, status=status)
    # The page's address may hold a secret link: no other site reads it in a Referer. Not "no-referrer": the
    # browser would then send the form's POST with "Origin: null", which Django's CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


@require_http_methods(["GET"])
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    try:
        email_confirm(token=token, now=timezone.now())
    except Refused as exc:
        return _message(request, gettext("Address not confirmed"), exc.message, status=status_for(exc.code))
    return _message(request, gettext("Address confirmed"), gettext("Thank you: your email address is confirmed."))


@require_http_methods(["GET", "POST"])
def reset_ask(request: HttpRequest) -> HttpResponse:
    title = gettext("Forgot your password?")
    form = ResetRequestForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        return _form(request, title, form, submit=gettext("Send me a link"),
                     intro=gettext("We send a link to the account's confirmed email address."))
    name = form.cleaned_data["name"]
    try:
        reset_request(username=None if "@" in name else name, email=name if "@" in name else None,
                      client=client_address(request), now=timezone.now())
    except Refused as exc:
        return _form(request, title, form, submit=gettext("Send me a link"), error=exc.message,
                     status=status_for(exc.code))
    return _message(request, gettext("Check your email"), str(RESET_SENT))


@require_http_methods(["GET", "POST"])
def reset(request: HttpRequest, token: str) -> HttpResponse:
    title = gettext("Choose a new password")
    form = NewPasswordForm(request.POST or None)
    submit = gettext("Set the new password")
    if request.method != "POST" or not form.is_valid():
        return _form(request, title, form, submit=submit)
    try:
        reset_confirm(token=token, password=form.cleaned_data["password"], now=timezone.now())
    except Refused as exc:
        return _form(request, title, form, submit=submit, error=exc.message, status=status_for(exc.code))
    return _message(request, gettext("Password changed"),
                    gettext("Your new password is set, and every device was signed out: log in again."))


@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    title = gettext("Close your account")
    player = session_player(request.session)
    if player is None or player.user_id is None:
        return _message(request, title, gettext("Sign in to the account you want to close first."), status=403)
    form = CloseForm(request.POST or None)
    intro = gettext("Your password, email address, access tokens, chat messages and rating on the leaderboard are "
                    "erased at once; your games stay for your opponents, under \"%(name)s\". Your username is freed "
                    "%(days)s days later.") % {"name": DELETED_NAME, "days": NAME_HELD_DAYS}
    submit = gettext("Close the account for good")
    if request.method != "POST" or not form.is_valid():
        return _form(request, title, form, submit=submit, intro=intro, export=True)
    try:
        account_delete(player=player, password=form.cleaned_data["password"], now=timezone.now())
    except Refused as exc:
        return _form(request, title, form, submit=submit, intro=intro, export=True, error=exc.message,
                     status=status_for(exc.code))
    request.session.flush()
    return _message(request, gettext("Account closed"), gettext("Your account is closed. Thank you for playing."))


class UnsubscribeForm(forms.Form):
    pass


@csrf_exempt  # RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" with no cookie; the token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button (a link checker fetching the link changes nothing); POST: unsubscribed."""
    title = gettext("Unsubscribe")
    if request.method != "POST":
        return _form(request, title, UnsubscribeForm(), submit=title, intro=gettext("Stop these emails? One click."))
    try:
        kind = unsubscribe_kind(token=token)
    except Refused as exc:
        return _message(request, title, exc.message, status=status_for(exc.code))
    return _message(request, gettext("Unsubscribed"),
                    gettext("You will get no more \"%(kind)s\" emails. Choose again in your account's preferences.")
                    % {"kind": kind_name(kind)})
