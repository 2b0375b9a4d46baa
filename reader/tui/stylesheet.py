"""The app's stylesheet: CSS is parsed again only when a theme changes its variables, and rules parsed
in an earlier run are read back instead of parsed (`reader.tui.saved_css`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.stylesheet import Stylesheet

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.types import CSSLocation

    from reader.tui.saved_css import SavedCss


class VariablesAwareStylesheet(Stylesheet):
    """Re-parses its sources only when the CSS variables change; reads saved rules when given `saved`.

    Textual refreshes CSS by setting the variables (which empties the parse cache) and then parsing
    every source again from scratch, also at start-up with the very variables the sources were
    just parsed with: app.tcss and each widget's default CSS were tokenized twice before the first
    paint (measured: 8 ms of the app's 12 ms of CSS parsing). Here unchanged variables keep the
    cache, so `reparse` only parses what is new; a theme with other colours clears it as before.
    Like Textual's, a parse that fails leaves the rules in use as they were (`parse` assigns them
    only when every source parsed).
    """

    def __init__(self, *, variables: dict[str, str] | None = None, saved: SavedCss | None = None) -> None:
        super().__init__(variables=variables)
        self.saved = saved
        if saved is not None:
            saved.use_variables(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        if variables != self._variables:
            super().set_variables(variables)
            if self.saved is not None:
                self.saved.use_variables(variables)

    def reparse(self) -> None:
        self.parse()

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        source = (css, read_from, is_default_rules, tie_breaker, scope)
        if self.saved is None or source in self._parse_cache:
            return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        rules = self.saved.get(source)
        if rules is not None:
            self._parse_cache[source] = rules
            return rules
        rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            self.saved.put(source, rules)
        return rules
