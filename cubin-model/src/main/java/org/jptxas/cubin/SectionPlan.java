package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Which sections a cubin has and in what order, as ptxas 13 writes them; a {@link CubinBuilder} step. */
record SectionPlan(List<String> names, Map<String, Integer> index) {
    SectionPlan {
        names = List.copyOf(names);
        index = Map.copyOf(index);
    }

    static SectionPlan of(CubinBuilder b) {
        List<String> names = new ArrayList<>();
        names.add("");
        names.add(".shstrtab");
        names.add(".strtab");
        names.add(".symtab");
        names.add(".debug_frame");
        if (b.lineTables != null) {
            names.add(".debug_line");
            names.add(".nv_debug_line_sass");
            names.add(b.ptxTextSection());
        }
        if (b.writesRegisterMaps()) {
            names.add(DebugSections.REG_SASS);
            names.add(DebugSections.REG_TYPE);
        }
        b.dwarfSections().forEach(d -> names.add(d.name()));
        if (!b.v7()) {
            names.add(".note.nv.tkinfo");
            names.add(".note.nv.cuinfo");
        }
        names.add(".nv.info");
        if (b.flavor.hopperLayout() && !b.v7()) {
            names.add(".nv.compat");
        }
        for (FunctionFacts f : b.functions) {
            names.add(".nv.info." + f.name());
        }
        names.add(".nv.callgraph");
        if (!b.prototypes.isEmpty()) {
            names.add(".nv.prototype");
        }
        if (!b.flavor.hopperLayout() && !b.relocatable) {
            names.add(".nv.rel.action");
        }
        if (!b.addressTable.isEmpty()) {
            names.add(b.addressTableRela() ? ".rela.nv.constant4" : ".rel.nv.constant4");
        }
        relocationSections(b, names);
        allocated(b, names);
        if (b.globals.stream().anyMatch(g -> g.init() == null)) {
            names.add(".nv.global");
        }
        if (b.globals.stream().anyMatch(g -> g.init() != null)) {
            names.add(".nv.global.init");
        }
        if (b.writesDebugShared() && !b.namesDebugShared()) {
            names.add(CubinBuilder.DEBUG_SHARED); // last, after the module's data
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        return new SectionPlan(names, index);
    }

    private static void relocationSections(CubinBuilder b, List<String> names) {
        boolean hopperLayout = b.flavor.hopperLayout();
        for (FunctionFacts f : b.functions) {
            long firstRel = b.firstRelocation(f, false);
            long firstRela = b.firstRelocation(f, true);
            // From sm_90 on, a function with inner functions keeps an (empty) RELA section for its resolved calls.
            boolean hasRela = firstRela < Long.MAX_VALUE || hopperLayout && !b.v7() && !f.inner().isEmpty();
            // Of the two, ptxas writes first the one holding the relocation nearest the start of the code.
            if (hasRela && firstRela < firstRel) {
                names.add(".rela.text." + f.name());
            }
            if (firstRel < Long.MAX_VALUE) {
                names.add(".rel.text." + f.name());
            }
            if (hasRela && firstRela >= firstRel) {
                names.add(".rela.text." + f.name());
            }
        }
        if (b.lineTables != null) {
            String rel = b.debugLineRela() ? ".rela" : ".rel";
            if (!b.lineTables.sourceLines().isEmpty()) {
                names.add(rel + ".debug_line");
            }
            if (!b.lineTables.ptxLines().isEmpty()) {
                names.add(rel + ".nv_debug_line_sass");
            }
        }
        // the code addresses in the PTX's DWARF: RELA on every SM (ptxas 13, sm_80 and sm_90)
        b.dwarfSections().stream().filter(d -> !d.relocations().isEmpty()).forEach(d -> names.add(".rela" + d.name()));
        // Texture header slots' relocations of constant bank 0: ptxas writes the first function's before
        // .debug_frame's and every other function's after them (measured on rodinia mummergpu and parboil crys).
        if (!b.functions.isEmpty() && !b.textureSlots(b.functions.get(0).name()).isEmpty()) {
            names.add(b.textureSlotSection(b.functions.get(0).name()));
        }
        if (hopperLayout && !b.v7()) {
            // sm_90+: an empty relocation section per kernel's jump tables (their entries need none in an executable)
            b.functions.stream().filter(f -> b.hasConstantBank2(f.name()))
                    .forEach(f -> names.add(".rela.nv.constant2." + f.name()));
        }
        names.addAll(DataRelocations.sectionNames(b));
        if (!b.functions.isEmpty()) {
            // Below sm_90, -c splits them: the entries without addend in .rel, the CIE pointers in .rela.
            if (!b.debugFrameRela() || b.relocatable && !hopperLayout) {
                names.add(".rel.debug_frame");
            }
            if (b.debugFrameRela()) {
                names.add(".rela.debug_frame");
            }
        }
        for (int k = 1; k < b.functions.size(); k++) {
            if (!b.textureSlots(b.functions.get(k).name()).isEmpty()) {
                names.add(b.textureSlotSection(b.functions.get(k).name()));
            }
        }
    }

    /** Code, shared memory and constant banks: constants first below sm_90, last from sm_90 on. */
    private static void allocated(CubinBuilder b, List<String> names) {
        List<String> code = new ArrayList<>();
        List<String> data = new ArrayList<>();
        for (FunctionFacts f : b.functions) {
            code.add(".text." + f.name());
            if (b.hasShared(f)) {
                data.add(".nv.shared." + f.name());
            }
        }
        if (b.namesDebugShared()) {
            // -g: after the first kernel's shared window (ptxas 13), or where the module's shared data would begin
            data.add(data.isEmpty() ? 0 : 1, CubinBuilder.DEBUG_SHARED);
        }
        if (b.writesReservedSharedSection()) {
            data.add(0, CubinBuilder.RESERVED_SHARED);
        }
        List<String> constants = new ArrayList<>();
        if (b.bank3 != null) {
            constants.add(".nv.constant3");
        }
        if (!b.addressTable.isEmpty()) {
            constants.add(".nv.constant4");
        }
        // Device functions have no parameter bank; a kernel's jump tables (bank 2) come before its bank 0.
        for (FunctionFacts f : b.functions) {
            if (b.hasConstantBank2(f.name())) {
                constants.add(".nv.constant2." + f.name());
            }
            if (f.entry()) {
                constants.add(".nv.constant0." + f.name());
            }
        }
        if (b.flavor.hopperLayout() && !b.v7()) {
            // sm_90+: jump tables and banks 0 with texture slots (relocated by the driver) come before the code, the
            // others last
            List<String> relocated = constants.stream().filter(n -> n.startsWith(".nv.constant2.")
                    || n.startsWith(".nv.constant0.")
                    && !b.textureSlots(n.substring(".nv.constant0.".length())).isEmpty()).toList();
            constants.removeAll(relocated);
            names.addAll(relocated);
            names.addAll(code);
            names.addAll(data);
            names.addAll(constants);
        } else {
            names.addAll(constants);
            names.addAll(code);
            names.addAll(data);
        }
    }
}
