"""Pages of the games app owned by the record and game-page views (included at the root)."""

from django.urls import path

from games import views_game, views_record

app_name = "games"

urlpatterns = [
    path("games/<int:log_id>/", views_game.game_page, name="log"),
    path("games/<int:log_id>/replay/", views_game.game_replay, name="log-replay"),
    path("record/", views_record.record_page, name="record"),
    path("record/step/", views_record.record_step, name="record-step"),
    path("record/deal/", views_record.record_deal, name="record-deal"),
    path("record/save/", views_record.record_save, name="record-save"),
]
