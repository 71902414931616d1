"""The confirmation API's routes, mounted at /api/ next to games' (deepsea/urls.py)."""

from rest_framework.routers import SimpleRouter

from confirmations import api

router = SimpleRouter()
router.register("confirmations", api.ConfirmationViewSet, basename="confirmation")

urlpatterns = router.urls
