"""Pages of the games app (namespace "games"): upload and list pages here, then the record
and game pages from games/urls_pages.py."""

from django.urls import path

from games import urls_pages, views_upload

app_name = "games"

urlpatterns = [
    path("upload/", views_upload.upload_page, name="upload-new"),
    path("uploads/", views_upload.upload_list, name="uploads"),
    path("uploads/<int:upload_id>/", views_upload.upload_detail, name="upload"),
    path("uploads/<int:upload_id>/status.json", views_upload.upload_status, name="upload-status"),
    path("games/", views_upload.game_list, name="games"),
    *urls_pages.urlpatterns,
]
