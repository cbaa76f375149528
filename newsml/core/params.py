"""scikit-learn's parameter protocol without importing scikit-learn.

Methods and feature families are configured, copied and searched like scikit-learn
estimators (``get_params``, ``set_params``, ``sklearn.base.clone``, grid search), but
they are also what a shipped model holds, so loading a model imports their classes.
Subclassing ``sklearn.base.BaseEstimator`` would make every ``newsml predict`` import
scikit-learn and SciPy, a slow start and much memory, for code prediction never runs
(docs/decisions/2026-11-23-prediction-without-scikit-learn.md). :class:`Parametrized`
implements the protocol those uses need, as scikit-learn documents it for estimators
that do not inherit from it: parameters are the ``__init__`` arguments, stored as
attributes of the same name.
"""

from __future__ import annotations

import inspect
from typing import Any, NoReturn


class Parametrized:
    """``get_params``/``set_params``/``repr`` of an object whose ``__init__`` only stores its arguments."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The ``__init__`` arguments, sorted (as scikit-learn lists them)."""
        init = cls.__init__
        if init is object.__init__:
            return []
        parameters = [p for p in inspect.signature(init).parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD]
        if any(p.kind == p.VAR_POSITIONAL for p in parameters):
            raise RuntimeError(f"{cls.__name__} must take its parameters by name, not *args")
        return sorted(p.name for p in parameters)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Parameter names mapped to their values (``deep``: nested ones as ``name__param``)."""
        out: dict[str, Any] = {}
        for key in self._get_param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{key}__{k}", v) for k, v in value.get_params().items())
            out[key] = value
        return out

    def set_params(self, **params: Any) -> Parametrized:
        """Set parameters (``name__param`` reaches into a nested object); returns self."""
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator {self}. "
                                 f"Valid parameters are: {sorted(self._get_param_names())!r}.")
            if sep:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
                valid[name] = value
        for name, sub_params in nested.items():
            valid[name].set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        """``Name(param=value, ...)`` with the parameters that differ from their defaults."""
        defaults = {name: p.default for name, p in inspect.signature(type(self).__init__).parameters.items()}
        changed = [f"{key}={value!r}" for key, value in self.get_params(deep=False).items()
                   if key not in defaults or defaults[key] is inspect.Parameter.empty
                   or repr(value) != repr(defaults[key])]
        return f"{type(self).__name__}({', '.join(changed)})"

    def __setstate__(self, state: dict[str, Any]) -> None:
        # files written while these classes were scikit-learn estimators carry its version
        state.pop("_sklearn_version", None)
        self.__dict__.update(state)

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's default estimator tags (imported only when scikit-learn asks)."""
        from sklearn.utils import Tags, TargetTags

        return Tags(estimator_type=None, target_tags=TargetTags(required=False), transformer_tags=None,
                    regressor_tags=None, classifier_tags=None)


def raise_not_fitted(estimator: object, attribute: str) -> NoReturn:
    """Raise scikit-learn's NotFittedError, as ``check_is_fitted`` would (imported on this path only)."""
    from sklearn.exceptions import NotFittedError

    raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet (it has no "
                         f"{attribute}). Call 'fit' with appropriate arguments before using this estimator.")
