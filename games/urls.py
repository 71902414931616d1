"""Pages of the games app (namespace "games"): upload, lists, a game's page with its replay,
and the record page with its JSON steps."""

from django.urls import path

from games import views_game, views_record, views_upload

app_name = "games"

urlpatterns = [
    path("upload/", views_upload.upload_page, name="upload-new"),
    path("uploads/", views_upload.upload_list, name="uploads"),
    path("uploads/<int:upload_id>/", views_upload.upload_detail, name="upload"),
    path("uploads/<int:upload_id>/status/", views_upload.upload_status, name="upload-status"),
    path("games/", views_upload.game_list, name="games"),
    path("games/<int:log_id>/", views_game.game_page, name="log"),
    path("games/<int:log_id>/replay/", views_game.game_replay, name="log-replay"),
    path("games/<int:log_id>/verdict/", views_game.game_verdict, name="log-verdict"),
    path("record/", views_record.record_page, name="record"),
    path("record/step/", views_record.record_step, name="record-step"),
    path("record/deal/", views_record.record_deal, name="record-deal"),
    path("record/save/", views_record.record_save, name="record-save"),
    path("record/drafts/", views_record.draft_keep, name="record-draft-keep"),
    path("record/drafts/<str:key>/", views_record.draft_detail, name="record-draft"),
    path(
        "record/drafts/<str:key>/discard/",
        views_record.draft_discard,
        name="record-draft-discard",
    ),
]
