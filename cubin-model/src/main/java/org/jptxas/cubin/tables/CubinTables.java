package org.jptxas.cubin.tables;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.tables.TableLoader;

/**
 * The cubin tables of module {@code tables} ({@code cubin/eiattr.json}, {@code cubin/eicompat.json},
 * {@code cubin/relocations.json}, {@code cubin/section-types.json}, {@code cubin/dwarf.json}), loaded once, strictly, and immutable.
 */
public final class CubinTables {
    private CubinTables() {}

    /** How the payload of a sized .nv.info record is read. */
    public enum Payload { auto, words, symbolValue, kparamInfo, paramCbank }

    /** One EIATTR code. */
    public record Eiattr(int code, String name, Payload payload, String label, boolean hex, boolean cuobjdump125) {}

    /** One EICOMPAT code. */
    public record Eicompat(int code, String name) {}

    /** One R_CUDA relocation type. */
    public record RelocationType(int code, String name) {}

    /** One section type. */
    public record SectionTypeName(long type, String name, boolean cuobjdump125) {}

    /** What ptxas 13 writes into .nv.info.&lt;function&gt; for a group of SMs ({@code cubin/nvinfo-rules.json}). */
    public record NvInfoRules(List<Integer> sms, int swWar, boolean sw2861232War, boolean sparseMmaMask,
                              int mercuryIsaVersion, boolean vrcCtaInitCount, List<String> order) {
        /** Position of EIATTR {@code code} in the record order, or {@code Integer.MAX_VALUE} when not listed. */
        public int rank(int code) {
            int i = order.indexOf(String.format("0x%02x", code));
            return i < 0 ? Integer.MAX_VALUE : i;
        }
    }

    record NvInfoRulesFile(String note, List<NvInfoRules> groups) {}

    record EiattrFile(String note, List<Eiattr> attributes) {}

    record EicompatFile(String note, List<Eicompat> attributes) {}

    record RelocationFile(String note, List<RelocationType> relocations) {}

    record SectionTypeFile(String note, List<SectionTypeName> types) {}

    /** One DWARF code and its name ({@code cubin/dwarf.json}). */
    public record DwarfName(int code, String name) {}

    record DwarfFile(String note, List<DwarfName> tags, List<DwarfName> attributes, List<DwarfName> forms) {}

    private static final class Holder {
        static final Map<Integer, Eiattr> EIATTR = index(
                TableLoader.load("cubin/eiattr.json", EiattrFile.class).attributes(), Eiattr::code, Eiattr::name, "cubin/eiattr.json");
        static final Map<Integer, Eicompat> EICOMPAT = index(
                TableLoader.load("cubin/eicompat.json", EicompatFile.class).attributes(), Eicompat::code, Eicompat::name, "cubin/eicompat.json");
        static final List<RelocationType> RELOCATIONS = checkDense(
                TableLoader.load("cubin/relocations.json", RelocationFile.class).relocations());
        static final Map<Integer, SectionTypeName> SECTION_TYPES = index(
                TableLoader.load("cubin/section-types.json", SectionTypeFile.class).types(), t -> (int) t.type(),
                SectionTypeName::name, "cubin/section-types.json");
    }

    private static final class DwarfHolder {
        static final DwarfFile FILE = TableLoader.load("cubin/dwarf.json", DwarfFile.class);
        static final Map<Integer, DwarfName> TAGS = index(FILE.tags(), DwarfName::code, DwarfName::name, "cubin/dwarf.json tags");
        static final Map<Integer, DwarfName> ATTRIBUTES = index(FILE.attributes(), DwarfName::code, DwarfName::name,
                "cubin/dwarf.json attributes");
        static final Map<Integer, DwarfName> FORMS = index(FILE.forms(), DwarfName::code, DwarfName::name, "cubin/dwarf.json forms");
    }

    /** The name of DWARF tag {@code code}, e.g. {@code DW_TAG_variable}. */
    public static Optional<String> dwarfTag(long code) {
        return Optional.ofNullable(DwarfHolder.TAGS.get((int) code)).filter(n -> n.code() == code).map(DwarfName::name);
    }

    /** The name of DWARF attribute {@code code}, e.g. {@code DW_AT_location}. */
    public static Optional<String> dwarfAttribute(long code) {
        return Optional.ofNullable(DwarfHolder.ATTRIBUTES.get((int) code)).filter(n -> n.code() == code).map(DwarfName::name);
    }

    /** The name of DWARF form {@code code}, e.g. {@code DW_FORM_block1}. */
    public static Optional<String> dwarfForm(long code) {
        return Optional.ofNullable(DwarfHolder.FORMS.get((int) code)).filter(n -> n.code() == code).map(DwarfName::name);
    }

    private static final class RulesHolder {
        static final List<NvInfoRules> RULES = TableLoader.load("cubin/nvinfo-rules.json", NvInfoRulesFile.class).groups();
    }

    /** The .nv.info rules for SM {@code sm} (the nearest lower group for an SM the table does not list). */
    public static NvInfoRules nvInfoRules(int sm) {
        NvInfoRules best = null;
        int bestSm = -1;
        for (NvInfoRules r : RulesHolder.RULES) {
            for (int s : r.sms()) {
                if (s == sm) {
                    return r;
                }
                if (s < sm && s > bestSm) {
                    best = r;
                    bestSm = s;
                }
            }
        }
        return best != null ? best : RulesHolder.RULES.get(0);
    }

    private static <T> Map<Integer, T> index(List<T> rows, java.util.function.ToIntFunction<T> key,
                                             java.util.function.Function<T, String> name, String table) {
        Map<Integer, T> byCode = new HashMap<>();
        Map<String, Integer> byName = new HashMap<>();
        for (T row : rows) {
            if (byCode.put(key.applyAsInt(row), row) != null) {
                throw new IllegalStateException(table + ": code " + key.applyAsInt(row) + " appears twice");
            }
            if (byName.put(name.apply(row), key.applyAsInt(row)) != null) {
                throw new IllegalStateException(table + ": name " + name.apply(row) + " appears twice");
            }
        }
        return Map.copyOf(byCode);
    }

    private static List<RelocationType> checkDense(List<RelocationType> rows) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).code() != i) {
                throw new IllegalStateException("cubin/relocations.json: entry " + i + " has code " + rows.get(i).code());
            }
        }
        return List.copyOf(rows);
    }

    public static Optional<Eiattr> eiattr(int code) {
        return Optional.ofNullable(Holder.EIATTR.get(code));
    }

    /** The EIATTR code called {@code name} (without the {@code EIATTR_} prefix). */
    public static int eiattrCode(String name) {
        return Holder.EIATTR.values().stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no EIATTR called " + name)).code();
    }

    public static Optional<Eicompat> eicompat(int code) {
        return Optional.ofNullable(Holder.EICOMPAT.get(code));
    }

    /** The relocation type name for {@code code}, e.g. {@code R_CUDA_ABS47_34}. */
    public static Optional<RelocationType> relocation(int code) {
        return code >= 0 && code < Holder.RELOCATIONS.size() ? Optional.of(Holder.RELOCATIONS.get(code)) : Optional.empty();
    }

    /** The relocation type code called {@code name} (with the {@code R_CUDA_} prefix). */
    public static int relocationCode(String name) {
        return Holder.RELOCATIONS.stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no relocation type " + name)).code();
    }

    public static Optional<SectionTypeName> sectionType(int type) {
        return Optional.ofNullable(Holder.SECTION_TYPES.get(type));
    }

    /** All relocation types, indexed by code. */
    public static List<RelocationType> relocations() {
        return Holder.RELOCATIONS;
    }
}
