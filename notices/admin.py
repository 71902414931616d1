from django.contrib import admin

from notices.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Read-only: what the site told whom, and whether the mail left (for support)."""

    list_display = ["subject", "user", "kind", "created", "read_at", "delivery", "mailed_at"]
    list_filter = ["kind", "delivery"]
    search_fields = ["user__username", "subject"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
