"""Analysis pages (namespace "analysis")."""

from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:log_id>/analysis/", views.game, name="game"),
    path("games/<int:log_id>/analysis/start/", views.start, name="start"),
    path("games/<int:log_id>/analysis/status.json", views.status, name="status"),
    path("games/<int:log_id>/analysis/progress/", views.progress, name="progress"),
    path("games/<int:log_id>/board/", views.board_start, name="board-start"),
    path("games/<int:log_id>/board/<int:board_id>.json", views.board_status, name="board"),
    path("analysis/turn-back/", views.turn_back, name="turn-back"),
    path("analysis/method/", views.method, name="method"),
]
