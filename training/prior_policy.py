"""A masked policy that starts from a bot's choice: ``logits = net(x) + w * onehot(bot's action)``.

The observation of :class:`rummy_env.wrappers.features.SolverFeatures` with ``prior="greedy"``
ends with one entry, the action id the greedy bot would play from the learner's own view (-1
with no legal action). :class:`PriorMaskablePolicy` strips that entry before the MLP (a raw
action id is no input for a network) and adds ``prior_weight`` to the logit of that action.

Why: behaviour cloning reproduces the greedy bot only up to its errors (held-out agreement
0.98-0.99), and in several variants those few errors cost more than PPO then wins back (the
Tahelia Powe clone plays 3.6 points per deal behind greedy). With the bonus the untrained policy
already plays greedy's move as its argmax (the network's initial logits are near zero), and PPO
learns where to deviate from it: a residual policy over the bot, in the spirit of residual
policy learning (Silver et al. 2018), with the bot's choice as a feature computed from the seat's
view only. ``prior_learn: true`` makes the weight a trained parameter; by default it is fixed.

The exported policy file records ``{"prior": {"bot": "greedy", "weight": w}}`` and
:class:`~rummy_env.bots.policy.PolicyBot` adds the same bonus, so evaluation plays exactly what
was trained.

How the entry reaches the head: SB3 calls the features extractor on the observation and then
``_get_action_dist_from_latent`` on the MLP's output in every path that builds a distribution
(``forward``, ``evaluate_actions``, ``get_distribution``), so the extractor keeps the last
batch's prior column for the head to read; the value path reads it too, harmlessly.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class PriorSplit(BaseFeaturesExtractor):
    """Flattened observation without its last entry (the prior action id), which it keeps in
    ``last_prior`` (a LongTensor, -1 for none)."""

    def __init__(self, observation_space: gym.spaces.Box) -> None:
        size = int(observation_space.shape[0]) - 1
        if size < 1:
            raise ValueError(f"PriorSplit needs an observation with a prior entry after at "
                             f"least one feature, got shape {observation_space.shape}")
        super().__init__(observation_space, features_dim=size)
        self.last_prior: th.Tensor | None = None

    def forward(self, observations: th.Tensor) -> th.Tensor:
        x = observations.flatten(start_dim=1)
        self.last_prior = x[:, -1].round().long()
        return x[:, :-1]


class PriorMaskablePolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy whose logits get ``prior_weight`` on the prior bot's action.

    :param prior_weight: the bonus (about 3-5: the untrained policy's argmax is the bot's
        move, and it still samples the others while PPO explores).
    :param prior_learn: train the weight with the rest (default: fixed).
    """

    def __init__(self, *args: Any, prior_weight: float = 4.0, prior_learn: bool = False,
                 **kwargs: Any) -> None:
        kwargs["features_extractor_class"] = PriorSplit
        kwargs.setdefault("share_features_extractor", True)
        if not kwargs["share_features_extractor"]:
            raise ValueError("PriorMaskablePolicy needs share_features_extractor=True (the "
                             "head reads the prior from the one extractor)")
        self._prior_init = float(prior_weight)
        self._prior_learn = bool(prior_learn)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        # the weight exists before the optimizer is built, so that a learnt one is trained
        self.prior_weight = th.nn.Parameter(th.tensor(self._prior_init),
                                            requires_grad=self._prior_learn)
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(prior_weight=self._prior_init, prior_learn=self._prior_learn)
        data.pop("features_extractor_class", None)
        return data

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> Any:
        logits = self.action_net(latent_pi)
        extractor = self.features_extractor
        assert isinstance(extractor, PriorSplit)
        prior = extractor.last_prior
        if prior is None or prior.shape[0] != logits.shape[0]:
            raise RuntimeError("PriorMaskablePolicy: the features extractor did not see this "
                               "batch (a distribution built without extract_features?)")
        bonus = th.zeros_like(logits)
        rows = th.nonzero(prior >= 0).flatten()
        bonus[rows, prior[rows]] = 1.0
        return self.action_dist.proba_distribution(action_logits=logits
                                                   + self.prior_weight * bonus)


__all__ = ["PriorMaskablePolicy", "PriorSplit"]
