"""Will it fit: a memory plan for one GPU or many (issue 19).  ``fit_plan`` answers, ``plan_json`` and
``plan_text`` render; docs/fit.md states every assumption and the vLLM source it follows."""

from .catalog import GPUS, GPU, get_gpu
from .plan import Device, FitPlan, fit_plan
from .render import plan_json, plan_text

__all__ = ["GPU", "GPUS", "Device", "FitPlan", "fit_plan", "get_gpu", "plan_json", "plan_text"]
