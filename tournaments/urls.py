from django.urls import path

from tournaments import views, views_day
from tournaments.feeds import TournamentFeed

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/round/<int:number>/", views.seating_sheet, name="seating"),
    path("<slug:slug>/round/<int:number>/table/<int:table>/", views.table_detail, name="table"),
    path("<slug:slug>/calendar.ics", TournamentFeed(), name="calendar"),
    # A player's own page on the day, and what they do there (as themselves only).
    path("<slug:slug>/me/", views_day.me, name="me"),
    path("<slug:slug>/me/live/", views_day.me_live, name="me-live"),
    path("<slug:slug>/me/register/", views_day.me_register, name="me-register"),
    path("<slug:slug>/me/check-in/", views_day.me_check_in, name="me-check-in"),
    path("<slug:slug>/me/drop/", views_day.me_drop, name="me-drop"),
    # The organisers' desk.
    path("<slug:slug>/desk/", views_day.desk, name="desk"),
    path("<slug:slug>/desk/live/", views_day.desk_live, name="desk-live"),
    path("<slug:slug>/desk/settings/", views_day.desk_settings, name="desk-settings"),
    path("<slug:slug>/desk/register/", views_day.desk_register, name="desk-register"),
    path("<slug:slug>/desk/check-in/", views_day.desk_check_in, name="desk-check-in"),
    path("<slug:slug>/desk/drop/", views_day.desk_drop, name="desk-drop"),
    path("<slug:slug>/desk/seat/", views_day.desk_seat, name="desk-seat"),
    path("<slug:slug>/desk/timer/", views_day.desk_timer, name="desk-timer"),
    path("<slug:slug>/desk/finish/", views_day.desk_finish, name="desk-finish"),
    path("<slug:slug>/desk/table/<int:table_id>/", views_day.desk_table, name="desk-table"),
    path("<slug:slug>/desk/table/<int:table_id>/undo/", views_day.desk_undo, name="desk-undo"),
    path("<slug:slug>/desk/round/<int:number>/sheets/", views_day.table_sheets, name="sheets"),
    # The venue screen: pairings and standings in large type, refreshing themselves.
    path("<slug:slug>/screen/", views_day.screen, name="screen"),
    path("<slug:slug>/screen/live/", views_day.screen_live, name="screen-live"),
]
