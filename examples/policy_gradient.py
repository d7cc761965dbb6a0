"""Train a tiny policy-gradient agent in tapete's single-agent env and compare it to random.

The agent is a linear softmax policy over the masked action catalogue, trained with
REINFORCE (reward = the agent's score change for each one-hand episode, baseline = a
running mean). It plays seat 0 of Cutthroat against two tapete bots. Plain numpy.

    python examples/policy_gradient.py --steps 5000 --opponents easy
"""

from __future__ import annotations

import argparse

import numpy as np

from tapete.env import single_agent


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -1e9)
    z = z - z.max()
    p = np.exp(z) * (mask > 0)
    return p / p.sum()


def evaluate(env: object, weights: np.ndarray | None, episodes: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    total = 0.0
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)  # type: ignore[attr-defined]
        done = False
        while not done:
            mask = obs["action_mask"]
            if weights is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(np.argmax(np.where(mask > 0, obs["observation"] @ weights, -1e9)))
            obs, reward, terminated, truncated, _ = env.step(action)  # type: ignore[attr-defined]
            total += reward
            done = terminated or truncated
    return total / episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="cutthroat")
    parser.add_argument("--opponents", default="easy")
    parser.add_argument("--steps", type=int, default=5000, help="agent decisions to train on")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval", type=int, default=100, help="evaluation hands")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = single_agent(args.profile, opponents=args.opponents, seat=0, max_hands=1)
    size = env.observation_space["observation"].shape[0]
    weights = np.zeros((size, env.action_space.n), dtype=np.float64)
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    steps = episodes = 0
    while steps < args.steps:
        obs, _ = env.reset(seed=args.seed * 1_000_003 + episodes)
        trajectory: list[tuple[np.ndarray, np.ndarray, int]] = []
        ret = 0.0
        done = False
        while not done:
            probs = masked_softmax(obs["observation"] @ weights, obs["action_mask"])
            action = int(rng.choice(len(probs), p=probs))
            trajectory.append((obs["observation"].astype(np.float64), probs, action))
            obs, reward, terminated, truncated, _ = env.step(action)
            ret += reward
            done = terminated or truncated
            steps += 1
        advantage = (ret - baseline) / 100.0
        baseline += 0.05 * (ret - baseline)
        for x, probs, action in trajectory:
            grad = -probs
            grad[action] += 1.0
            weights += args.lr * advantage * np.outer(x, grad)
        episodes += 1
        if episodes % 50 == 0:
            print(f"{steps:6d} steps  {episodes:4d} hands  running mean points/hand {baseline:7.1f}")
    random_score = evaluate(env, None, args.eval, seed=10_000)
    trained = evaluate(env, weights, args.eval, seed=10_000)
    print(f"\nover {args.eval} evaluation hands (same deals) against {args.opponents} bots:")
    print(f"  masked random agent   {random_score:7.1f} points per hand")
    print(f"  trained linear policy {trained:7.1f} points per hand")


if __name__ == "__main__":
    main()
