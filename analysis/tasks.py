"""Celery tasks: thin wrappers taking ids; the work is in analysis/services/."""

from celery import shared_task

from analysis.services import board, jobs


@shared_task
def analyse_chunk_task(chunk_id: int) -> None:
    jobs.run_chunk(chunk_id)


@shared_task
def board_task(request_id: int) -> None:
    board.run(request_id)
