from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("player/", views.player, name="player"),
    path("claims/", views.claims, name="claims"),
    path("claims/<int:claim_id>/approve/", views.decide, {"approve": True}, name="approve"),
    path("claims/<int:claim_id>/refuse/", views.decide, {"approve": False}, name="refuse"),
]
