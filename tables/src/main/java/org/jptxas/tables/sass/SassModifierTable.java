package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * One JSON file of independent modifier enums ({@code sass/modifiers-base.json}: classes every SM agrees on;
 * {@code sass/modifiers-sm80.json} ...: per-SM classes, which replace a base class of the same mnemonic and key).
 * Derived by {@code tools/sass-probe} ({@code probe modifiers}) and confirmed with nvdisasm 12.5.
 *
 * @param format always {@code "volta-128-modifiers"}
 * @param scope {@code "base"} or the SM name of an overlay
 * @param derivedWith provenance
 * @param classes the modifier classes
 * @param decorations an overlay's operand decorations ({@code tools/sass-probe/operand-decorations}; the base has none)
 */
public record SassModifierTable(String format, String scope, String derivedWith, List<SassModifierClass> classes,
                                List<SassDecorationClass> decorations) {
    public SassModifierTable(String format, String scope, String derivedWith, List<SassModifierClass> classes) {
        this(format, scope, derivedWith, classes, List.of());
    }

    @JsonCreator
    public SassModifierTable(@JsonProperty(value = "format", required = true) String format,
                             @JsonProperty(value = "scope", required = true) String scope,
                             @JsonProperty(value = "derivedWith", required = true) String derivedWith,
                             @JsonProperty(value = "classes", required = true) List<SassModifierClass> classes,
                             @JsonProperty(value = "decorations", required = true)
                             List<SassDecorationClass> decorations) {
        if (!"volta-128-modifiers".equals(format)) {
            throw new IllegalArgumentException("format must be 'volta-128-modifiers', not '" + format + "'");
        }
        this.format = format;
        this.scope = Objects.requireNonNull(scope);
        this.derivedWith = Objects.requireNonNull(derivedWith);
        this.classes = List.copyOf(classes);
        this.decorations = List.copyOf(decorations);
    }
}
