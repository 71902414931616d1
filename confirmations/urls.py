from django.urls import path

from confirmations import views

app_name = "confirmations"

urlpatterns = [
    path("pending/", views.pending, name="pending"),
    path("games/<int:log_id>/confirm/", views.confirm, name="confirm"),
    path("games/<int:log_id>/dispute/", views.dispute, name="dispute"),
    path("games/<int:log_id>/at-table/", views.at_table, name="at_table"),
]
