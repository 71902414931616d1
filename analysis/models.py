"""Stored analyses: one per log, engine version and budget; split into chunks for workers."""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from django.urls import reverse

from engines.analysis import Budget, engine_version


def budget_key(budget: Budget) -> str:
    return json.dumps(budget.to_json(), sort_keys=True, separators=(",", ":"))


class Analysis(models.Model):
    """The Monte Carlo analysis of one verified log at one engine version and budget."""

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    log = models.ForeignKey("games.GameLog", models.CASCADE, related_name="analyses")
    game_type = models.CharField(max_length=40)
    engine_version = models.CharField(max_length=20)
    budget = models.JSONField(help_text="engines.analysis.Budget.to_json()")
    budget_key = models.CharField(max_length=200)
    seed = models.CharField(max_length=40, default="0")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    # Set when a reverify retracted the game; an analysis of another engine version is
    # stale too (see is_stale).
    stale = models.BooleanField(default=False)
    total = models.PositiveIntegerField(default=0, help_text="decision points")
    done = models.PositiveIntegerField(default=0, help_text="decision points evaluated")
    # DecisionAnalysis.to_json() of every decision, in event order (once done).
    decisions = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "analyses"
        constraints = [
            models.UniqueConstraint(
                fields=["log", "engine_version", "budget_key", "seed"],
                name="one_analysis_per_log_engine_budget",
            )
        ]

    def __str__(self) -> str:
        return f"analysis of log {self.log_id} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("analysis:game", args=[self.log_id])

    @property
    def is_stale(self) -> bool:
        return self.stale or self.engine_version != engine_version(self.game_type)

    @property
    def percent(self) -> float:
        return round(100 * self.done / self.total, 1) if self.total else 100.0

    def budget_value(self) -> Budget:
        return Budget.from_json(self.budget)

    def progress(self) -> dict[str, Any]:
        return {
            "analysis": self.pk,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "percent": self.percent,
            "stale": self.is_stale,
            "error": self.error,
        }


class AnalysisChunk(models.Model):
    """The decision points one Celery task evaluates."""

    analysis = models.ForeignKey(Analysis, models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    indices = models.JSONField(help_text="event indices of its decision points")
    decisions = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["analysis", "number"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "number"], name="unique_analysis_chunk")
        ]

    def __str__(self) -> str:
        return f"chunk {self.number} of analysis {self.analysis_id}"


class BoardRequest(models.Model):
    """An analysis-board question: one position of a replay, every alternative evaluated."""

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    log = models.ForeignKey("games.GameLog", models.CASCADE, related_name="board_requests")
    index = models.PositiveIntegerField(help_text="the position before this event")
    engine_version = models.CharField(max_length=20)
    budget = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(default=0, help_text="actions to evaluate")
    done = models.PositiveIntegerField(default=0)
    estimates = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"board of log {self.log_id} after event {self.index}"
