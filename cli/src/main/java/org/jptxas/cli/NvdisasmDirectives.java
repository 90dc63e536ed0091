package org.jptxas.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.ElfHeader;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.Symbol;
import org.apache.commons.lang3.StringUtils;

/**
 * The directive lines nvdisasm 12.5 prints around code sections: {@code .headerflags}, {@code .elftype}, and per
 * {@code .text} section {@code .section}, {@code .sectionflags}, {@code .sectioninfo}, {@code .align} and the
 * function symbol's {@code .global}/{@code .type}/{@code .size}/{@code .other}. Layouts were read off nvdisasm 12.5
 * listings of ptxas 12.5 and 13.0 cubins (which 12.5 decodes with the ABI v7 flag names).
 */
final class NvdisasmDirectives {
    private static final Set<Integer> KNOWN_SMS = Set.of(30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87,
            89, 90);

    private NvdisasmDirectives() {}

    /** {@code .headerflags} with nvdisasm 12.5's names for {@code e_flags} bits (it knows only the v7 layout). */
    static String headerFlags(int flags) {
        List<String> names = new ArrayList<>();
        if ((flags & 0x100) != 0) {
            names.add("EF_CUDA_TEXMODE_UNIFIED");
        }
        if ((flags & 0x200) != 0) {
            names.add("EF_CUDA_TEXMODE_INDEPENDENT");
        }
        if ((flags & 0x400) != 0) {
            names.add("EF_CUDA_64BIT_ADDRESS");
        }
        if ((flags & 0x800) != 0) {
            names.add("EF_CUDA_SW_1729687");
        }
        if ((flags & 0x1000) != 0) {
            names.add("EF_CUDA_SW_1729687_v2");
        }
        int sm = flags & 0xff;
        names.add(KNOWN_SMS.contains(sm) ? "EF_CUDA_SM" + sm : "unrecognized:" + Integer.toHexString(sm));
        int virtualSm = (flags >>> 16) & 0xff;
        if (virtualSm != 0) {
            names.add("EF_CUDA_VIRTUAL_SM(" + (KNOWN_SMS.contains(virtualSm) ? "EF_CUDA_SM" + virtualSm
                    : "unrecognized:" + Integer.toHexString(virtualSm)) + ")");
        }
        if ((flags & 0xff000000) != 0) {
            names.add("unrecognized:" + Integer.toHexString(flags & 0xff000000));
        }
        return "\t.headerflags\t@\"" + String.join(" ", names) + "\"";
    }

    static List<String> fileHeader(Cubin cubin) {
        ElfHeader h = cubin.header();
        String type = switch (h.type()) {
            case ElfHeader.ET_REL -> "ET_REL";
            case ElfHeader.ET_EXEC -> "ET_EXEC";
            default -> "ET_" + h.type();
        };
        return List.of(headerFlags(h.flags()), "\t.elftype\t@\"" + type + "\"");
    }

    /** The separator comment before each section: name padded to 25 columns. */
    static String banner(String section) {
        return "//--------------------- " + StringUtils.rightPad(section, 25) + " --------------------------";
    }

    /** Section directives, then the function symbol's directives and labels, up to the first instruction line. */
    static List<String> sectionHeader(Cubin cubin, Section s, String endLabel) {
        List<String> out = new ArrayList<>();
        out.add("\t.section\t" + s.name() + ",\"ax\",@progbits");
        long barriers = (s.flags() >>> 20) & 0x7f;
        if (barriers != 0) {
            out.add("\t.sectionflags\t@\"SHF_BARRIERS=" + barriers + "\"");
        }
        long registers = (s.info() >>> 24) & 0xff;
        if (registers != 0) {
            out.add("\t.sectioninfo\t@\"SHI_REGISTERS=" + registers + "\"");
        }
        out.add("\t.align\t" + s.addralign());
        String fn = s.functionName();
        Symbol sym = functionSymbol(cubin, s, fn);
        if (sym != null && sym.binding() == Symbol.STB_WEAK) { // a weak function: the section's label first
            out.add(s.name() + ":");
            out.add(directive(".weak", fn));
            out.addAll(typeAndSize(fn, endLabel));
            if (sym.other() != 0) {
                out.add(directive(".other", fn + ",@\"" + other(sym.other()) + "\""));
            }
            out.add(fn + ":");
        } else if (sym != null && sym.binding() != Symbol.STB_LOCAL) {
            out.add(directive(sym.binding() == Symbol.STB_WEAK ? ".weak" : ".global", fn));
            out.addAll(typeAndSize(fn, endLabel));
            if (sym.other() != 0) {
                out.add(directive(".other", fn + ",@\"" + other(sym.other()) + "\""));
            }
            out.add(fn + ":");
            out.add(s.name() + ":");
        } else {
            out.add(s.name() + ":");
            out.addAll(typeAndSize(fn, endLabel));
            if (sym != null && sym.other() != 0) { // a kernel declared without .visible
                out.add(directive(".other", fn + ",@\"" + other(sym.other()) + "\""));
            }
            out.add(fn + ":");
        }
        return out;
    }

    /** {@code .type}/{@code .size} of a function symbol ending at {@code endLabel} (none known: no {@code .size}). */
    static List<String> typeAndSize(String name, String endLabel) {
        List<String> out = new ArrayList<>();
        out.add(directive(".type", name + ",@function"));
        if (endLabel != null) {
            out.add(directive(".size", name + ",(" + endLabel + " - " + name + ")"));
        }
        return out;
    }

    /** The trailing {@code SYMBOLS} block: undefined object symbols (e.g. {@code __UFT}) and extern functions,
     * in symbol-table order. */
    static List<String> undefinedSymbols(Cubin cubin) {
        List<String> out = new ArrayList<>();
        for (Symbol sym : cubin.symbols()) {
            if (sym.shndx() != Symbol.SHN_UNDEF || sym.name().isEmpty()) {
                continue;
            }
            String type = switch (sym.symbolType()) {
                case Symbol.STT_OBJECT -> "@object";
                case Symbol.STT_FUNC -> "@function"; // an extern function (e.g. malloc)
                case Symbol.STT_CUDA_OBJECT -> "@\"STT_CUDA_OBJECT\"";
                case 10 -> "@\"STT_CUDA_TEXTURE\"";
                case 11 -> "@\"STT_CUDA_SURFACE\"";
                case 12 -> "@\"STT_CUDA_SAMPLER\"";
                default -> null;
            };
            if (type == null) {
                continue;
            }
            out.add("\t.type\t\t" + sym.name() + "," + type);
            if (sym.other() != 0) {
                out.add("\t.other\t\t" + sym.name() + ",@\"" + NvdisasmSections.other(sym.other()) + "\"");
            }
            if (sym.size() != 0) {
                out.add("\t.size\t\t" + sym.name() + ",0x" + Long.toHexString(sym.size()));
            }
        }
        if (!out.isEmpty()) {
            out.addAll(0, List.of("", "", "//--------------------- SYMBOLS --------------------------", ""));
        }
        return out;
    }

    static String directive(String name, String args) {
        return "        " + StringUtils.rightPad(name, 16) + args;
    }

    private static String other(int other) {
        List<String> names = new ArrayList<>();
        if ((other & Symbol.STO_CUDA_ENTRY) != 0) {
            names.add("STO_CUDA_ENTRY");
        }
        names.add(switch (other & 3) {
            case 1 -> "STV_INTERNAL";
            case 2 -> "STV_HIDDEN";
            case 3 -> "STV_PROTECTED";
            default -> "STV_DEFAULT";
        });
        return String.join(" ", names);
    }

    private static Symbol functionSymbol(Cubin cubin, Section s, String fn) {
        int index = cubin.sectionIndex(s.name());
        for (Symbol sym : cubin.symbols()) {
            if (sym.shndx() == index && sym.name().equals(fn) && sym.symbolType() == Symbol.STT_FUNC) {
                return sym;
            }
        }
        return null;
    }
}
