from django.urls import path

from tournaments import views

app_name = "players"

urlpatterns = [path("<str:handle>/", views.player_detail, name="detail")]
