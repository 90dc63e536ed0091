package org.jptxas.simulator.exec;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.abi.ParamLayout;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.ParamSpec;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.Region;

/**
 * A launch ready to run: the target, entry and extents, the device's global memory with one buffer per pointer
 * argument, and every argument's bytes. Executors lay the arguments out for their program ({@link #paramArea} for
 * the PTX parameter space, {@link #constantBank0} for SASS), then run. Mutable: the kernel writes global memory.
 */
public final class Launch {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** One kernel argument: its spec, its value as raw bits, and the buffer behind it for pointers. */
    public record Argument(ParamSpec spec, long bits, Optional<Region> buffer) {}

    private final Target target;
    private final String entry;
    private final Dim3 grid;
    private final Dim3 block;
    private final Optional<Dim3> cluster;
    private final int dynamicSharedBytes;
    private final GlobalMemory global;
    private final List<Argument> arguments;
    /** The descriptor pools of the texture objects among the arguments, or null when there are none. */
    private final TextureDescriptors.Pools textures;
    /** {@link #naturalConstantBank0}'s result, shared by this launch and its copies (same arguments and addresses). */
    private final Bank0Memo bank0Memo;

    /** A computed constant bank 0 and the stack top it was computed for. */
    private record Bank0(int stackTop, byte[] bytes) {}

    private static final class Bank0Memo {
        private volatile Bank0 value;
    }

    private Launch(Target target, String entry, LaunchSpec spec, GlobalMemory global, List<Argument> arguments,
                   TextureDescriptors.Pools textures) {
        this(target, entry, spec.grid(), spec.block(), spec.cluster(), spec.dynamicSharedBytes(), global,
                List.copyOf(arguments), new Bank0Memo(), textures);
    }

    private Launch(Target target, String entry, Dim3 grid, Dim3 block, Optional<Dim3> cluster, int dynamicSharedBytes,
                   GlobalMemory global, List<Argument> arguments, Bank0Memo bank0Memo, TextureDescriptors.Pools textures) {
        this.textures = textures;
        this.bank0Memo = bank0Memo;
        this.target = target;
        this.entry = entry;
        this.grid = grid;
        this.block = block;
        this.cluster = cluster;
        this.dynamicSharedBytes = dynamicSharedBytes;
        this.global = global;
        this.arguments = arguments;
    }

    /**
     * Allocates the buffers of {@code spec} (filled from their {@code in} files) in a fresh global memory.
     *
     * @throws LaunchException when the spec names no entry, an input file cannot be read or is larger than its buffer,
     *     or a cluster is given for a target before sm_90
     */
    public static Launch prepare(Target target, LaunchSpec spec) throws LaunchException {
        Objects.requireNonNull(target, "target");
        String entry = spec.entry().orElseThrow(() -> new LaunchException("no entry given (spec field \"entry\" or --entry)"));
        if (spec.cluster().isPresent() && target.sm() < 90) {
            throw new LaunchException("thread-block clusters need sm_90 or later, not " + target.name());
        }
        if (spec.cluster().isPresent()) {
            Dim3 c = spec.cluster().get();
            if (spec.grid().x() % c.x() != 0 || spec.grid().y() % c.y() != 0 || spec.grid().z() % c.z() != 0) {
                throw new LaunchException("the grid " + spec.grid() + " is not a multiple of the cluster " + c);
            }
        }
        GlobalMemory global = new GlobalMemory();
        List<Argument> args = new ArrayList<>();
        int textureCount = (int) spec.params().stream()
                .filter(p -> p instanceof ParamSpec.Texture || p instanceof ParamSpec.Surface).count();
        Region headers = null;
        Region samplers = null;
        if (textureCount > 0) { // the driver's descriptor pools, entry 0 empty
            headers = global.allocate("texture headers", (long) TextureDescriptors.HEADER_BYTES * (textureCount + 1));
            samplers = global.allocate("texture samplers", (long) TextureDescriptors.SAMPLER_BYTES * (textureCount + 1));
        }
        int textureIndex = 0;
        int index = 0;
        for (ParamSpec p : spec.params()) {
            if (p instanceof ParamSpec.Scalar s) {
                args.add(new Argument(s, s.bits(), Optional.empty()));
            } else if (p instanceof ParamSpec.Bytes b) {
                args.add(new Argument(b, 0, Optional.empty())); // the area copies the spec's bytes
            } else if (p instanceof ParamSpec.Pointer ptr) {
                Region r = global.allocate("buffer of param " + index, ptr.bytes());
                if (ptr.in().isPresent()) {
                    byte[] data = readInput(ptr.in().get(), index, ptr.bytes());
                    System.arraycopy(data, 0, r.bytes(), 0, data.length);
                }
                args.add(new Argument(ptr, r.base(), Optional.of(r)));
            } else if (p instanceof ParamSpec.TensorMapOf m) {
                if (m.of() >= index || args.get(m.of()).buffer().isEmpty()) {
                    throw new LaunchException("param " + index + ": a tensor map of param " + m.of()
                            + ", which is not an earlier pointer");
                }
                Region r = global.allocateCopy("tensor map of param " + index, TensorMap.encode(
                        args.get(m.of()).bits(), m.dataType(), m.dims(), m.strides(), m.box(), m.elementStrides(),
                        m.swizzle()));
                args.add(new Argument(m, r.base(), Optional.of(r)));
            } else if (p instanceof ParamSpec.Texture || p instanceof ParamSpec.Surface) {
                ParamSpec.Texture t = p instanceof ParamSpec.Surface s ? s.asTexture() : (ParamSpec.Texture) p;
                Region r = global.allocate("texels of param " + index, t.bytes());
                if (t.in().isPresent()) {
                    byte[] data = readInput(t.in().get(), index, t.bytes());
                    System.arraycopy(data, 0, r.bytes(), 0, data.length);
                }
                textureIndex++;
                System.arraycopy(TextureDescriptors.header(r.base(), t), 0, headers.bytes(),
                        TextureDescriptors.HEADER_BYTES * textureIndex, TextureDescriptors.HEADER_BYTES);
                System.arraycopy(TextureDescriptors.sampler(t), 0, samplers.bytes(),
                        TextureDescriptors.SAMPLER_BYTES * textureIndex, TextureDescriptors.SAMPLER_BYTES);
                args.add(new Argument(p, TextureDescriptors.handle(textureIndex), Optional.of(r)));
            }
            index++;
        }
        return new Launch(target, entry, spec, global, args, textureCount == 0 ? null
                : new TextureDescriptors.Pools(headers.base(), samplers.base(), textureCount + 1));
    }

    private static byte[] readInput(Path file, int index, long bytes) throws LaunchException {
        try {
            long size = Files.size(file);
            if (size > bytes) {
                throw new LaunchException("param " + index + ": input " + file + " has " + size
                        + " bytes, more than the buffer's " + bytes);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new LaunchException("param " + index + ": cannot read input " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A launch identical to this one with its own global memory holding a copy of this launch's buffers as they are
     * now (same device addresses): prepare once, then run copies repeatedly without re-reading the input files.
     */
    public Launch copy() {
        GlobalMemory fresh = new GlobalMemory();
        List<Region> old = global.regionsView();
        List<Region> moved = new ArrayList<>(old.size());
        for (Region r : old) {
            Region c = fresh.allocateCopy(r.name(), r.bytes());
            if (c.base() != r.base()) {
                throw new IllegalStateException("global memory layout not reproducible: " + r.name());
            }
            moved.add(c);
        }
        Argument[] args = new Argument[arguments.size()];
        for (int i = 0; i < args.length; i++) {
            Argument a = arguments.get(i);
            args[i] = a.buffer().isEmpty() ? a : new Argument(a.spec(), a.bits(), Optional.of(moved.get(indexOf(old, a.buffer().get()))));
        }
        return new Launch(target, entry, grid, block, cluster, dynamicSharedBytes, fresh, List.of(args), bank0Memo,
                textures);
    }

    /**
     * This launch as a cluster launch of shape {@code shape} (the kernel's compile-time cluster, which the driver
     * applies to a launch that names none), on the same global memory.
     *
     * @throws LaunchException for a target before sm_90 or a grid that is not a multiple of {@code shape}
     */
    public Launch withCluster(Dim3 shape) throws LaunchException {
        if (target.sm() < 90) {
            throw new LaunchException("thread-block clusters need sm_90 or later, not " + target.name());
        }
        if (grid.x() % shape.x() != 0 || grid.y() % shape.y() != 0 || grid.z() % shape.z() != 0) {
            throw new LaunchException("the grid " + grid + " is not a multiple of the kernel's cluster " + shape);
        }
        return new Launch(target, entry, grid, block, Optional.of(shape), dynamicSharedBytes, global, arguments,
                new Bank0Memo(), textures);
    }

    private static int indexOf(List<Region> regions, Region r) {
        for (int i = 0; i < regions.size(); i++) {
            if (regions.get(i) == r) {
                return i;
            }
        }
        throw new IllegalStateException("buffer outside the launch's global memory: " + r.name());
    }

    /** Writes every buffer that has an {@code out} file. */
    public List<Path> writeOutputs() throws LaunchException {
        List<Path> written = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            Argument a = arguments.get(i);
            Optional<Path> target = a.spec() instanceof ParamSpec.Pointer p ? p.out()
                    : a.spec() instanceof ParamSpec.Surface s ? s.out() : Optional.empty();
            if (target.isPresent()) {
                Path out = target.get();
                try {
                    Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), ".jptxas-run", ".tmp");
                    Files.write(tmp, a.buffer().orElseThrow().bytes());
                    Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    written.add(out);
                } catch (IOException e) {
                    throw new LaunchException("param " + i + ": cannot write output " + out + ": " + e.getMessage(), e);
                }
            }
        }
        return written;
    }

    /**
     * The parameter area laid out as {@code layout} says (the kernel's declared parameters).
     *
     * @throws LaunchException when the argument count or a size does not match the declaration
     */
    public byte[] paramArea(ParamLayout layout) throws LaunchException {
        if (layout.slots().size() != arguments.size()) {
            throw new LaunchException("kernel " + entry + " takes " + layout.slots().size() + " parameters, the launch gives "
                    + arguments.size());
        }
        byte[] area = new byte[layout.size()];
        for (int i = 0; i < arguments.size(); i++) {
            ParamLayout.Slot slot = layout.slots().get(i);
            Argument a = arguments.get(i);
            if (slot.size() != a.spec().size()) {
                throw new LaunchException("param " + i + " of " + entry + " is declared with " + slot.size()
                        + " bytes, the launch gives " + describe(a.spec()) + " (" + a.spec().size() + " bytes)");
            }
            if (a.spec() instanceof ParamSpec.Bytes b) {
                System.arraycopy(b.value(), 0, area, slot.offset(), slot.size());
            } else {
                put(area, slot.offset(), slot.size(), a.bits());
            }
        }
        return area;
    }

    /**
     * {@link #constantBank0} for the {@link #naturalLayout}, padded to a multiple of 16 bytes, computed once per launch
     * and its {@link #copy copies} (same arguments and addresses). The array is shared: callers must not change it.
     */
    public byte[] naturalConstantBank0(int stackTop) throws LaunchException {
        Bank0 b = bank0Memo.value;
        if (b == null || b.stackTop() != stackTop) {
            byte[] bank0 = constantBank0(naturalLayout(), stackTop);
            b = new Bank0(stackTop, Arrays.copyOf(bank0, Math.max(16, (bank0.length + 15) & ~15)));
            bank0Memo.value = b;
        }
        return b.bytes();
    }

    /** The default layout when the kernel's declaration is not at hand: natural alignment of each argument. */
    public ParamLayout naturalLayout() {
        List<ParamLayout.Declared> d = new ArrayList<>();
        for (Argument a : arguments) {
            int align = a.spec() instanceof ParamSpec.Bytes b ? b.align() : a.spec().size();
            d.add(new ParamLayout.Declared(a.spec().size(), align));
        }
        return ParamLayout.of(d);
    }

    /**
     * Constant bank 0 as the driver fills it for {@code target}: block and grid extents, the stack pointer, and the
     * parameter area at the target's parameter base.
     */
    public byte[] constantBank0(ParamLayout layout, int stackTop) throws LaunchException {
        ConstantBank0Layout cb = ConstantBank0Layout.of(target);
        byte[] params = paramArea(layout);
        byte[] bank = new byte[Math.max(cb.paramBase() + params.length, cb.paramBase())];
        put(bank, cb.blockDimOffset(), 4, block.x());
        put(bank, cb.blockDimOffset() + 4, 4, block.y());
        put(bank, cb.blockDimOffset() + 8, 4, block.z());
        put(bank, cb.gridDimOffset(), 4, grid.x());
        put(bank, cb.gridDimOffset() + 4, 4, grid.y());
        put(bank, cb.gridDimOffset() + 8, 4, grid.z());
        put(bank, cb.stackPointerOffset(), 4, stackTop);
        org.jptxas.ori.target.DriverConstants dc = cb.driver();
        if (target.sm() >= 90 && bank.length >= Math.max(dc.clusterNctarank(), dc.explicitCluster()) + 4) {
            ClusterConstants.fill(bank, dc, grid, cluster.orElse(new Dim3(1, 1, 1)), cluster.isPresent());
        }
        System.arraycopy(params, 0, bank, cb.paramBase(), params.length);
        return bank;
    }

    private static String describe(ParamSpec p) {
        return p instanceof ParamSpec.Scalar s ? s.type().specName() : p instanceof ParamSpec.Bytes ? "bytes"
                : p instanceof ParamSpec.TensorMapOf ? "tensor_map"
                : p instanceof ParamSpec.Texture ? "texture" : p instanceof ParamSpec.Surface ? "surface" : "ptr";
    }

    private static void put(byte[] a, int offset, int size, long v) {
        switch (size) {
            case 1 -> a[offset] = (byte) v;
            case 2 -> I16.set(a, offset, (short) v);
            case 4 -> I32.set(a, offset, (int) v);
            case 8 -> I64.set(a, offset, v);
            default -> {
                for (int i = 0; i < size; i++) {
                    a[offset + i] = i < 8 ? (byte) (v >>> (8 * i)) : 0;
                }
            }
        }
    }

    public Target target() {
        return target;
    }

    public String entry() {
        return entry;
    }

    public Dim3 grid() {
        return grid;
    }

    public Dim3 block() {
        return block;
    }

    public Optional<Dim3> cluster() {
        return cluster;
    }

    public int dynamicSharedBytes() {
        return dynamicSharedBytes;
    }

    public GlobalMemory global() {
        return global;
    }

    /** The texture the handle {@code handle} names ({@link TextureDescriptors#lookup}). */
    public Texture texture(long handle) {
        return TextureDescriptors.lookup(global, textures, handle);
    }

    public List<Argument> arguments() {
        return arguments;
    }
}
