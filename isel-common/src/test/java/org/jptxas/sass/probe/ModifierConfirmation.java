package org.jptxas.sass.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassFormTable;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierTable;
import org.jptxas.testing.RepoRoot;

/**
 * The probe's {@code confirm} step: the committed modifier classes are checked again by nvdisasm without being
 * relearned, and the composed spellings it refuses or prints otherwise join the classes' refused lists. For enums
 * edited or widened by hand (an absolute value where ptxas only negated), where a full {@code modifiers} run would
 * also relearn every other class. By default the classes with an absolute-value enum are checked; {@code --mnemonic}
 * picks classes by base mnemonic instead. With {@code --widen}, operand enums first gain the absolute values
 * {@link EnumWidening} finds beside their negations.
 *
 * <p>A base class whose refusals change identically on every SM is rewritten in the base; otherwise each SM that
 * changed it gets its own copy in its overlay (an overlay class replaces the base class of its mnemonic and key).
 */
final class ModifierConfirmation {
    private ModifierConfirmation() {}

    static void run(List<String> sms, Pattern mnemonics, boolean widen) throws IOException {
        Path dir = RepoRoot.find().orElseThrow().resolve("tables/src/main/resources/org/jptxas/tables/sass");
        ObjectMapper mapper = new ObjectMapper();
        SassModifierTable base = mapper.readValue(dir.resolve("modifiers-base.json").toFile(), SassModifierTable.class);
        Map<String, SassModifierTable> overlays = new LinkedHashMap<>();
        for (String sm : OracleSamples.SMS) {
            overlays.put(sm, mapper.readValue(modifierOverlay(sm).toFile(), SassModifierTable.class));
        }
        // per class id: the SMs whose base copy changed, and the new version per SM
        Map<String, Map<String, SassModifierClass>> fromBase = new LinkedHashMap<>();
        Map<String, Map<String, SassModifierClass>> fromOverlay = new LinkedHashMap<>();
        for (String sm : sms) {
            List<SassFormData> forms = SassProbe.readForms(dir, sm);
            Path formOverlay = SassProbe.overlayDir(sm).resolve(sm.replace("_", "") + ".json");
            Map<String, String> descriptors;
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(formOverlay)) {
                descriptors = org.jptxas.tables.TableLoader.read(formOverlay.toString(), in, SassFormTable.class)
                        .descriptorFields();
            }
            List<SassModifierClass> classes = new ArrayList<>(overlays.get(sm).classes());
            int fromOverlayCount = classes.size();
            List<String> replaced = classes.stream().map(ModifierConfirmation::id).toList();
            base.classes().stream().filter(c -> !replaced.contains(id(c))).forEach(classes::add);
            ModifierLearner learner = new ModifierLearner(sm, forms, descriptors);
            List<SassModifierClass> start = classes;
            if (widen) {
                List<String> log = new ArrayList<>();
                start = EnumWidening.widen(sm, new org.jptxas.sass.SassIsa(sm, forms), classes, log);
                log.forEach(System.err::println);
            }
            List<SassModifierClass> out = learner.reconfirm(start, c -> !c.lazy() && !c.trailing()
                    && (mnemonics == null ? absolute(c) : mnemonics.matcher(c.mnemonic()).matches()));
            learner.log().forEach(System.err::println);
            if (out == null) {
                throw new IllegalStateException(sm + ": the refusals did not settle; nothing written");
            }
            int changed = 0, refusals = 0;
            for (int i = 0; i < classes.size(); i++) {
                if (!out.get(i).equals(classes.get(i))) {
                    changed++;
                    refusals += out.get(i).refused().size() - classes.get(i).refused().size();
                    (i < fromOverlayCount ? fromOverlay : fromBase)
                            .computeIfAbsent(id(out.get(i)), k -> new LinkedHashMap<>()).put(sm, out.get(i));
                }
            }
            System.err.println(sm + ": " + changed + " classes gain " + refusals + " refused spellings");
        }
        List<SassModifierClass> newBase = new ArrayList<>(base.classes());
        Map<String, List<SassModifierClass>> newOverlays = new LinkedHashMap<>();
        overlays.forEach((sm, t) -> newOverlays.put(sm, new ArrayList<>(t.classes())));
        fromOverlay.forEach((id, bySm) -> bySm.forEach((sm, c) -> replace(newOverlays.get(sm), c)));
        fromBase.forEach((id, bySm) -> {
            boolean everywhere = bySm.size() == OracleSamples.SMS.size()
                    && bySm.values().stream().distinct().count() == 1;
            if (everywhere) {
                replace(newBase, bySm.values().iterator().next());
            } else {
                bySm.forEach((sm, c) -> newOverlays.get(sm).add(c));
            }
        });
        SassProbe.writeModifiers(dir.resolve("modifiers-base.json"), "base", base.derivedWith(), newBase, mapper);
        for (String sm : OracleSamples.SMS) {
            SassProbe.writeModifiers(modifierOverlay(sm), sm, overlays.get(sm).derivedWith(), newOverlays.get(sm),
                    mapper);
        }
    }

    private static Path modifierOverlay(String sm) {
        return SassProbe.overlayDir(sm).resolve("modifiers-" + sm.replace("_", "") + ".json");
    }

    /** A class's identity in the layering: an overlay class replaces the base class of the same id. */
    private static String id(SassModifierClass c) {
        return c.mnemonic() + "/" + c.key() + "/" + c.lazy();
    }

    private static boolean absolute(SassModifierClass c) {
        return c.groups().stream().anyMatch(g -> g.values().keySet().stream().anyMatch(n -> n.contains("|")));
    }

    private static void replace(List<SassModifierClass> classes, SassModifierClass c) {
        for (int i = 0; i < classes.size(); i++) {
            if (Objects.equals(id(classes.get(i)), id(c))) {
                classes.set(i, c);
                return;
            }
        }
        throw new IllegalStateException("no class " + id(c) + " to replace");
    }
}
