from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/round/<int:number>/", views.seating_sheet, name="seating"),
    path("<slug:slug>/round/<int:number>/table/<int:table>/", views.table_detail, name="table"),
]
