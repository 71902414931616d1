from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [path("player/", views.player, name="player")]
