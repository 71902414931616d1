from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("<int:notice_id>/open/", views.open_notice, name="open"),
    path("<int:notice_id>/read/", views.mark_read, name="read"),
    path("read-all/", views.mark_all_read, name="read_all"),
    path("preferences/", views.preferences, name="preferences"),
]
