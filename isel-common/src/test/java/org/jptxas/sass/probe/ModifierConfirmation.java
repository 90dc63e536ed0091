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
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierTable;
import org.jptxas.testing.RepoRoot;

/**
 * The probe's {@code confirm} step: the committed modifier classes are checked again by nvdisasm without being
 * relearned, and the composed spellings it refuses or prints otherwise join the classes' refused lists.
 * {@code --mnemonic=REGEX} picks the classes by base mnemonic (default: all). {@code --fresh} first drops the picked
 * classes' refusals, so refusals a confirmation made on an older form layout (ISETP's constant-bank forms, refused
 * while their offset slot was still {@code HEX 53:38} and the example offsets' two low bits printed nothing) are
 * found again or not at all. {@code --widen} first widens the mnemonic enums ({@link MnemonicWidening}).
 *
 * <p>A base class whose refusals change identically on every SM is rewritten in the base; otherwise each SM that
 * changed it gets its own copy in its overlay (an overlay class replaces the base class of its mnemonic and key).
 * A class new to a key goes to the SM overlays.
 */
final class ModifierConfirmation {
    private ModifierConfirmation() {}

    static void run(List<String> sms, Pattern mnemonics, boolean fresh, boolean widen) throws IOException {
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
        Map<String, List<SassModifierClass>> added = new LinkedHashMap<>();
        for (String sm : sms) {
            List<SassFormData> forms = SassProbe.readForms(dir, sm);
            List<SassModifierClass> classes = new ArrayList<>(overlays.get(sm).classes());
            int fromOverlayCount = classes.size();
            List<String> replaced = classes.stream().map(ModifierConfirmation::id).toList();
            base.classes().stream().filter(c -> !replaced.contains(id(c))).forEach(classes::add);
            java.util.function.Predicate<SassModifierClass> picked = c -> !c.lazy() && !c.trailing()
                    && (mnemonics == null || mnemonics.matcher(c.mnemonic()).matches());
            List<SassModifierClass> start = new ArrayList<>();
            for (SassModifierClass c : classes) {
                start.add(fresh && picked.test(c) ? new SassModifierClass(c.mnemonic(), c.key(), c.groups(), List.of())
                        : c);
            }
            if (widen) {
                List<String> log = new ArrayList<>();
                start = MnemonicWidening.widen(sm, new org.jptxas.sass.SassIsa(sm, forms), start, picked,
                        m -> mnemonics == null || mnemonics.matcher(m).matches(), log);
                log.forEach(System.err::println);
            }
            ModifierLearner learner = new ModifierLearner(sm, forms);
            List<SassModifierClass> out = learner.reconfirm(start, picked);
            learner.log().forEach(System.err::println);
            if (out == null) {
                throw new IllegalStateException(sm + ": the refusals did not settle; nothing written");
            }
            int changed = 0;
            for (int i = 0; i < classes.size(); i++) {
                if (!out.get(i).groups().equals(classes.get(i).groups()) || !new java.util.HashSet<>(out.get(i)
                        .refused()).equals(new java.util.HashSet<>(classes.get(i).refused()))) {
                    changed++;
                    (i < fromOverlayCount ? fromOverlay : fromBase)
                            .computeIfAbsent(id(out.get(i)), k -> new LinkedHashMap<>()).put(sm, out.get(i));
                }
            }
            List<SassModifierClass> extra = new ArrayList<>(out.subList(classes.size(), out.size()));
            added.put(sm, extra);
            System.err.println(sm + ": " + changed + " classes changed, " + extra.size() + " new");
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
        added.forEach((sm, cs) -> newOverlays.get(sm).addAll(cs));
        SassProbe.writeModifiers(dir.resolve("modifiers-base.json"), "base", base.derivedWith(), newBase,
                base.decorations(), mapper, false);
        for (String sm : OracleSamples.SMS) {
            SassProbe.writeModifiers(modifierOverlay(sm), sm, overlays.get(sm).derivedWith(), newOverlays.get(sm),
                    overlays.get(sm).decorations(), mapper, false);
        }
    }

    private static Path modifierOverlay(String sm) {
        return SassProbe.overlayDir(sm).resolve("modifiers-" + sm.replace("_", "") + ".json");
    }

    /** A class's identity in the layering: an overlay class replaces the base class of the same id. */
    private static String id(SassModifierClass c) {
        return c.mnemonic() + "/" + c.key() + "/" + c.lazy();
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
