package org.jptxas.tables.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableSource;

/**
 * Loads the SASS encoding forms and modifier enums of one target: the Volta-family base of the {@code tables} jar
 * ({@link #FAMILY_BASE}) plus the target's overlay, which its backend's jar holds ({@code sass/sm90.json}, ...). Each
 * call reads the JSON; callers keep the result (the target's description keeps the ISA built from it).
 */
public final class SassTables {
    /** The Volta-family base of the encoding forms (shared by sm_75 … sm_90), in the {@code tables} jar. */
    public static final String FAMILY_BASE = "/org/jptxas/tables/sass/volta-base.json";

    /** The Volta-family base of the modifier enums. */
    public static final String FAMILY_MODIFIERS = "/org/jptxas/tables/sass/modifiers-base.json";

    private SassTables() {}

    /**
     * A table's forms: the scope its overlay names ({@code sm_86}), every form, base first, and the overlay's
     * unprinted descriptor fields ({@link SassFormTable#descriptorFields()}).
     */
    public record Forms(String scope, List<SassFormData> forms, Map<String, String> descriptorFields) {}

    /**
     * The forms of {@code base} (scope {@code base}) and {@code overlay} (its own scope), read from {@code source}; an
     * overlay of 8-bit uniform fields ({@link SassFormTable#UNIFORM8_FORMAT}) holds all its target's forms, since the
     * base's uniform fields are 6 bits wide.
     */
    public static Forms forms(TableSource source, String base, String overlay) {
        SassFormTable b = source.load(base, SassFormTable.class);
        SassFormTable o = source.load(overlay, SassFormTable.class);
        if (!"base".equals(b.scope()) || "base".equals(o.scope())) {
            throw new TableException(source.path(overlay), "scope", "a base and an overlay are needed, found scopes "
                    + b.scope() + " and " + o.scope(), null);
        }
        List<SassFormData> all = new ArrayList<>(b.forms().size() + o.forms().size());
        if (!"volta-128".equals(b.format())) {
            throw new TableException(source.path(base), "format", "a base is 'volta-128', found " + b.format(), null);
        }
        if (!SassFormTable.UNIFORM8_FORMAT.equals(o.format())) {
            all.addAll(b.forms());
        }
        all.addAll(o.forms());
        return new Forms(o.scope(), all, o.descriptorFields());
    }

    /** A target's modifier tables: the classes the ISA composes or reads lazily, and its operand decorations. */
    public record Modifiers(List<SassModifierClass> classes, List<SassDecorationClass> decorations) {}

    /**
     * Both tables read once: the classes of {@code overlay} plus those of {@code base} it does not replace, and the
     * operand decorations of both.
     */
    public static Modifiers modifierTables(TableSource source, String base, String overlay) {
        SassModifierTable b = source.load(base, SassModifierTable.class);
        SassModifierTable o = source.load(overlay, SassModifierTable.class);
        if (!"base".equals(b.scope()) || "base".equals(o.scope())) {
            throw new TableException(source.path(overlay), "scope", "a base and an overlay are needed, found scopes "
                    + b.scope() + " and " + o.scope(), null);
        }
        List<SassDecorationClass> decorations = new ArrayList<>(o.decorations());
        decorations.addAll(b.decorations());
        return new Modifiers(layered(b, o), List.copyOf(decorations));
    }

    private static List<SassModifierClass> layered(SassModifierTable base, SassModifierTable overlay) {
        java.util.Set<String> replaced = new java.util.HashSet<>();
        for (SassModifierClass m : overlay.classes()) {
            replaced.add(m.mnemonic() + "/" + m.key() + "/" + m.lazy());
        }
        List<SassModifierClass> all = new ArrayList<>(overlay.classes());
        for (SassModifierClass m : base.classes()) {
            if (!replaced.contains(m.mnemonic() + "/" + m.key() + "/" + m.lazy())) {
                all.add(m);
            }
        }
        return all;
    }
}
