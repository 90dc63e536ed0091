package org.jptxas.tables.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jptxas.tables.TableLoader;

/**
 * Loads the SASS encoding forms of one SM: the shared base ({@code sass/volta-base.json}) plus the SM's overlay
 * ({@code sass/sm90.json}, ...). Each call reads the JSON; callers keep the result (the ISA objects built from it are
 * immutable and shared).
 */
public final class SassTables {
    /** SMs that have an overlay and therefore a complete table. sm_90a shares sm_90's table. */
    public static final Set<String> SMS = Set.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    private SassTables() {}

    /** The base file name. */
    public static final String BASE = "sass/volta-base.json";

    /** The overlay file name of {@code sm}, e.g. {@code sass/sm90.json} for {@code sm_90} or {@code sm_90a}. */
    public static String overlayName(String sm) {
        return "sass/" + canonical(sm).replace("_", "") + ".json";
    }

    /** {@code sm_90a} → {@code sm_90}; other names unchanged (lower case). */
    public static String canonical(String sm) {
        String s = sm.toLowerCase(Locale.ROOT);
        return s.endsWith("a") ? s.substring(0, s.length() - 1) : s;
    }

    /** Every form of {@code sm}: base first, then the overlay. */
    public static List<SassFormData> forms(String sm) {
        String c = canonical(sm);
        if (!SMS.contains(c)) {
            throw new IllegalArgumentException("no SASS encoding table for " + sm + " (have " + SMS + ")");
        }
        SassFormTable base = TableLoader.load(BASE, SassFormTable.class);
        SassFormTable overlay = TableLoader.load(overlayName(c), SassFormTable.class);
        if (!"base".equals(base.scope()) || !c.equals(overlay.scope())) {
            throw new IllegalStateException("SASS tables have the wrong scope: " + base.scope() + ", " + overlay.scope());
        }
        List<SassFormData> all = new ArrayList<>(base.forms().size() + overlay.forms().size());
        all.addAll(base.forms());
        all.addAll(overlay.forms());
        return all;
    }

    /** The modifier base file name. */
    public static final String MODIFIER_BASE = "sass/modifiers-base.json";

    /** The modifier overlay of {@code sm}, e.g. {@code sass/modifiers-sm90.json}. */
    public static String modifierOverlayName(String sm) {
        return "sass/modifiers-" + canonical(sm).replace("_", "") + ".json";
    }

    /**
     * The independent modifier classes of {@code sm}: the overlay's, plus the base's that the overlay does not
     * replace (same mnemonic and key). Empty when the files do not exist yet.
     */
    public static List<SassModifierClass> modifiers(String sm) {
        String c = canonical(sm);
        if (!SMS.contains(c)) {
            throw new IllegalArgumentException("no SASS modifier table for " + sm + " (have " + SMS + ")");
        }
        if (SassTables.class.getResource("/org/jptxas/tables/" + MODIFIER_BASE) == null) {
            return List.of();
        }
        SassModifierTable base = TableLoader.load(MODIFIER_BASE, SassModifierTable.class);
        SassModifierTable overlay = TableLoader.load(modifierOverlayName(c), SassModifierTable.class);
        if (!"base".equals(base.scope()) || !c.equals(overlay.scope())) {
            throw new IllegalStateException("SASS modifier tables have the wrong scope: " + base.scope() + ", "
                    + overlay.scope());
        }
        java.util.Set<String> replaced = new java.util.HashSet<>();
        for (SassModifierClass m : overlay.classes()) {
            replaced.add(m.mnemonic() + "/" + m.key());
        }
        List<SassModifierClass> all = new ArrayList<>(overlay.classes());
        for (SassModifierClass m : base.classes()) {
            if (!replaced.contains(m.mnemonic() + "/" + m.key())) {
                all.add(m);
            }
        }
        return all;
    }
}
