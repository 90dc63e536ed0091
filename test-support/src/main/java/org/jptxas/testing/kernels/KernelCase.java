package org.jptxas.testing.kernels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One kernel of the suite: its PTX (under {@code kernels/<name>/}), its launch (extents and arguments with
 * deterministic inputs) and a CPU reference that computes the expected contents of every output buffer.
 */
public final class KernelCase {
    /** A kernel argument, in parameter order. */
    public sealed interface Arg {
        String name();
    }

    /** A scalar by value: {@code type} is a launch-spec type name ({@code u32}, {@code f32}, ...). */
    public record Scalar(String name, String type, long bits, String jsonValue) implements Arg {}

    /**
     * A global buffer; {@code check} is null for a pure input. With {@code surfaceDims} (else empty) the kernel gets
     * a surface object over it instead of its address: an array of those extents of {@code elem} elements.
     */
    public record Buffer(String name, Elem elem, byte[] initial, boolean input, Check check, List<Integer> surfaceDims)
            implements Arg {
        public Buffer {
            surfaceDims = List.copyOf(surfaceDims);
        }

        public Buffer(String name, Elem elem, byte[] initial, boolean input, Check check) {
            this(name, elem, initial, input, check, List.of());
        }

        public boolean surface() {
            return !surfaceDims.isEmpty();
        }

        public boolean output() {
            return check != null;
        }

        public int count() {
            return initial.length / elem.size();
        }
    }

    /**
     * A tensor map (the simulator's 128-byte layout, in global memory; the kernel gets its address) of the buffer
     * {@code of}: CUtensorMapDataType {@code dataType}, dimensions in elements, byte strides of dimensions 1.., box,
     * CUtensorMapSwizzle {@code swizzle} (0: none).
     */
    public record TensorMapArg(String name, String of, int dataType, List<Long> dims, List<Long> strides,
            List<Integer> box, int swizzle) implements Arg {
        String json(List<Arg> args) {
            int of = -1;
            for (int i = 0; i < args.size(); i++) {
                of = args.get(i).name().equals(this.of) ? i : of;
            }
            return "{\"type\": \"tensor_map\", \"of\": " + of + ", \"data_type\": " + dataType + ", \"dims\": "
                    + dims + ", \"strides\": " + strides + ", \"box\": " + box
                    + (swizzle != 0 ? ", \"swizzle\": " + swizzle : "") + "}";
        }
    }

    /**
     * A texture object (the simulator's header and sampler; the kernel gets the handle) over the texels
     * {@code texels} (written as {@code <name>.bin}): the launch spec's {@code "texture"} fields, {@code border}
     * as integers.
     */
    public record TextureArg(String name, byte[] texels, String format, int channels, List<Integer> dims,
            boolean normalizedRead, boolean linear, List<String> address, boolean normalizedCoords,
            List<Integer> border) implements Arg {
        public TextureArg {
            texels = texels.clone();
            dims = List.copyOf(dims);
            address = List.copyOf(address);
            border = List.copyOf(border);
        }

        String json() {
            return "{\"type\": \"texture\", \"in\": \"" + name + ".bin\", \"format\": \"" + format
                    + "\", \"channels\": " + channels + ", \"dims\": " + dims + ", \"read_mode\": \""
                    + (normalizedRead ? "normalized_float" : "element") + "\", \"filter\": \""
                    + (linear ? "linear" : "point") + "\", \"address\": "
                    + address.stream().map(a -> "\"" + a + "\"").toList() + ", \"normalized_coords\": "
                    + normalizedCoords + ", \"border\": " + border + "}";
        }
    }

    private final String name;
    private final String entry;
    private final int minSm;
    private final Extent grid;
    private final Extent block;
    private final int dynamicSharedBytes;
    private final List<Arg> args;
    private final Consumer<Io> reference;
    private final String description;
    /** The thread-block cluster extent, or null for a launch without clusters. */
    private final Extent cluster;
    /** The PTX file when it lives outside {@code kernels/} (a shared-corpus file, read in place), else null. */
    private final Path ptxFile;

    KernelCase(String name, String entry, int minSm, Extent grid, Extent block, Extent cluster, int dynamicSharedBytes,
               List<Arg> args, Consumer<Io> reference, String description, Path ptxFile) {
        this.cluster = cluster;
        this.ptxFile = ptxFile;
        this.name = name;
        this.entry = entry;
        this.minSm = minSm;
        this.grid = grid;
        this.block = block;
        this.dynamicSharedBytes = dynamicSharedBytes;
        this.args = List.copyOf(args);
        this.reference = Objects.requireNonNull(reference, "reference of " + name);
        this.description = description;
    }

    public String name() {
        return name;
    }

    /** The thread-block cluster extent (sm_90), if the launch has one. */
    public java.util.Optional<Extent> cluster() {
        return java.util.Optional.ofNullable(cluster);
    }

    public String entry() {
        return entry;
    }

    /** Lowest SM the kernel's instructions need (80 for {@code redux.sync}). */
    public int minSm() {
        return minSm;
    }

    public Extent grid() {
        return grid;
    }

    public Extent block() {
        return block;
    }

    public int dynamicSharedBytes() {
        return dynamicSharedBytes;
    }

    public List<Arg> args() {
        return args;
    }

    public String description() {
        return description;
    }

    public boolean supports(int sm) {
        return sm >= minSm;
    }

    /** {@code kernels/<name>/} in the repository. */
    public Path dir() {
        return KernelSuite.kernelsDir().resolve(name);
    }

    /** The kernel's PTX: {@code kernels/<name>/<name>.ptx}, or the corpus file a corpus case names. */
    public Path ptx() {
        return ptxFile != null ? ptxFile : dir().resolve(name + ".ptx");
    }

    public Path cuda() {
        return dir().resolve(name + ".cu");
    }

    public Path launchJson() {
        return dir().resolve("launch.json");
    }

    /** Fresh copies of every buffer's initial contents, by name. */
    public Map<String, byte[]> initialBuffers() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (Arg a : args) {
            if (a instanceof Buffer b) {
                m.put(b.name(), b.initial().clone());
            }
        }
        return m;
    }

    /** The expected final contents of every output buffer, by name (the reference run on fresh inputs). */
    public Map<String, byte[]> expectedOutputs() {
        Map<String, byte[]> buffers = initialBuffers();
        Map<String, Long> scalars = new LinkedHashMap<>();
        for (Arg a : args) {
            if (a instanceof Scalar s) {
                scalars.put(s.name(), s.bits());
            }
        }
        Io io = new Io(buffers, scalars);
        reference.accept(io);
        io.flush();
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Arg a : args) {
            if (a instanceof Buffer b && b.output()) {
                out.put(b.name(), buffers.get(b.name()));
            }
        }
        return out;
    }

    /** Output buffers by name. */
    public List<Buffer> outputs() {
        return args.stream().filter(a -> a instanceof Buffer b && b.output()).map(a -> (Buffer) a).toList();
    }

    /**
     * Compares every output against the reference; returns human-readable mismatches (at most {@code limit} per
     * buffer), empty when all match.
     */
    public List<String> compare(Map<String, byte[]> actualOutputs, int limit) {
        Map<String, byte[]> expected = expectedOutputs();
        List<String> problems = new ArrayList<>();
        for (Buffer b : outputs()) {
            byte[] e = expected.get(b.name());
            byte[] a = actualOutputs.get(b.name());
            if (a == null || a.length != e.length) {
                problems.add(name + ": output " + b.name() + " missing or of the wrong size");
                continue;
            }
            ByteBuffer eb = ByteBuffer.wrap(e).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer ab = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
            int bad = 0;
            for (int i = 0; i < b.count(); i++) {
                long ev = element(eb, b.elem(), i), av = element(ab, b.elem(), i);
                if (!b.check().matches(b.elem(), ev, av)) {
                    if (bad < limit) {
                        problems.add(name + ": " + b.name() + "[" + i + "] expected " + b.elem().format(ev) + " got "
                                + b.elem().format(av) + " (" + b.check() + ")");
                    }
                    bad++;
                }
            }
            if (bad > limit) {
                problems.add(name + ": " + b.name() + ": " + (bad - limit) + " more mismatches");
            }
        }
        return problems;
    }

    /** A surface's texel format in the launch spec: its element's, a 64-bit element as two u32 channels. */
    private static String surfaceFormat(Elem e) {
        return switch (e) {
            case F32 -> "f32";
            case I32 -> "s32";
            case U8 -> "u8";
            case U16 -> "u16";
            default -> "u32";
        };
    }

    private static long element(ByteBuffer b, Elem e, int i) {
        return switch (e.size()) {
            case 1 -> b.get(i) & 0xffL;
            case 2 -> b.getShort(2 * i) & 0xffffL;
            case 4 -> b.getInt(4 * i) & 0xffffffffL;
            default -> b.getLong(8 * i);
        };
    }

    /**
     * The launch spec of this case in {@code bin/jptxas-run}'s format; input buffers read {@code <buffer>.bin},
     * outputs are written to {@code <buffer>.out.bin} (paths relative to the spec).
     */
    public String launchSpecJson() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"entry\": \"").append(entry).append("\",\n");
        sb.append("  \"grid\": ").append(grid.json()).append(",\n");
        sb.append("  \"block\": ").append(block.json()).append(",\n");
        if (cluster != null) {
            sb.append("  \"cluster\": ").append(cluster.json()).append(",\n");
        }
        sb.append("  \"dynamic_shared_bytes\": ").append(dynamicSharedBytes).append(",\n");
        sb.append("  \"params\": [");
        for (int i = 0; i < args.size(); i++) {
            sb.append(i == 0 ? "\n    " : ",\n    ");
            Arg a = args.get(i);
            if (a instanceof Scalar s) {
                sb.append("{\"type\": \"").append(s.type()).append("\", \"value\": ").append(s.jsonValue()).append('}');
            } else if (a instanceof Buffer b && b.surface()) {
                sb.append("{\"type\": \"surface\", \"in\": \"").append(b.name()).append(".bin\", \"out\": \"")
                        .append(b.name()).append(".out.bin\", \"format\": \"")
                        .append(surfaceFormat(b.elem())).append('"');
                if (b.elem().size() == 8) {
                    sb.append(", \"channels\": 2"); // a 64-bit element: two 32-bit channels
                }
                sb.append(", \"dims\": ").append(b.surfaceDims()).append('}');
            } else if (a instanceof Buffer b) {
                sb.append("{\"type\": \"ptr\", \"bytes\": ").append(b.initial().length);
                if (b.input()) {
                    sb.append(", \"in\": \"").append(b.name()).append(".bin\"");
                }
                if (b.output()) {
                    sb.append(", \"out\": \"").append(b.name()).append(".out.bin\"");
                }
                sb.append('}');
            } else if (a instanceof TensorMapArg m) {
                sb.append(m.json(args));
            } else if (a instanceof TextureArg t) {
                sb.append(t.json());
            }
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }

    /** Writes {@code launch.json} and every input {@code .bin} into {@code dir}; returns the spec's path. */
    public Path materialize(Path dir) {
        try {
            Files.createDirectories(dir);
            for (Arg a : args) {
                if (a instanceof Buffer b && b.input()) {
                    Files.write(dir.resolve(b.name() + ".bin"), b.initial());
                } else if (a instanceof TextureArg t) {
                    Files.write(dir.resolve(t.name() + ".bin"), t.texels());
                }
            }
            Path spec = dir.resolve("launch.json");
            Files.writeString(spec, launchSpecJson());
            return spec;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
