from django.urls import path

from pages import views
from tournaments.feeds import PlayerFeed

app_name = "players"

urlpatterns = [
    path("<str:handle>/", views.player_detail, name="detail"),
    path("<str:handle>/ratings.json", views.player_ratings, name="ratings"),
    path("<str:handle>/calendar.ics", PlayerFeed(), name="calendar"),
]
