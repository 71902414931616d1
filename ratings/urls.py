from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.leaderboard_index, name="index"),
    path("<slug:game_type>/", views.leaderboard, name="leaderboard"),
    path("<slug:game_type>/backtest/", views.backtest, name="backtest"),
]
