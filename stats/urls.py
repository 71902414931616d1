from django.urls import path

from stats import views

app_name = "stats"
urlpatterns = [
    path("", views.index, name="index"),
    path("hexes/", views.hex_list, name="hexes"),
    path("hexes/<slug:hex_id>/", views.hex_detail, name="hex"),
    path("strategies/", views.strategy_list, name="strategies"),
    path("lab/", views.lab, name="lab"),
    path("lab/<int:pk>/", views.batch, name="batch"),
    path("lab/<int:pk>/progress.json", views.batch_progress, name="batch-progress"),
    path("lab/<int:pk>/progress/", views.batch_progress_box, name="batch-progress-box"),
]
