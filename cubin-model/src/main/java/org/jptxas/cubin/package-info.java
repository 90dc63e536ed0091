/**
 * The cubin (CUDA ELF) object format: a lossless typed model, reader and writer, and the builder code generation uses.
 *
 * <ul>
 *   <li>{@link org.jptxas.cubin.Cubin} is the model: {@link org.jptxas.cubin.ElfHeader}, sections in header
 *       order, program headers and the file {@link org.jptxas.cubin.Layout}. {@code Cubin.read(bytes).write()}
 *       returns the same bytes for every ptxas 13 cubin of the corpus (ABI v7 and v8, sm_75 … sm_120, capsule-Mercury
 *       sections kept as opaque data). Bad input ends in {@link org.jptxas.cubin.CubinFormatException}.</li>
 *   <li>Typed views of section contents: {@link org.jptxas.cubin.SymbolTable},
 *       {@link org.jptxas.cubin.StringTable}, {@link org.jptxas.cubin.Relocations},
 *       {@link org.jptxas.cubin.Note}, and {@link org.jptxas.cubin.info.NvInfo} for .nv.info/.nv.compat
 *       records ({@link org.jptxas.cubin.info.Attribute}).</li>
 *   <li>Writing new cubins: {@link org.jptxas.cubin.FunctionFacts} (what code generation knows about a
 *       function) → {@link org.jptxas.cubin.CubinBuilder}; the records follow ptxas 13's rules
 *       ({@link org.jptxas.cubin.info.FunctionInfo}, {@link org.jptxas.cubin.info.GlobalInfo}).
 *       {@link org.jptxas.cubin.CubinFacts} reads the facts back from any cubin.</li>
 *   <li>Reports: {@link org.jptxas.cubin.ResourceReport} ({@code -v}), {@link org.jptxas.cubin.dump.ElfDump}
 *       ({@code cuobjdump -elf}), {@link org.jptxas.cubin.dump.SassDump} ({@code cuobjdump -sass}).</li>
 * </ul>
 *
 * Names and codes (EIATTR, EICOMPAT, R_CUDA, section types, per-SM .nv.info rules) come from the JSON tables in
 * module {@code tables} under {@code cubin/}, read by {@link org.jptxas.cubin.tables.CubinTables}.
 */
package org.jptxas.cubin;
