package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;

/**
 * Where one {@link JptxasCommand} run reads its PTX inputs and leaves its outputs: files beside the working directory
 * for the command line ({@link #files}); memory for the Java API, which also keeps the diagnostics and the resource
 * usage as data.
 */
interface Workspace {
    /** What an output holds. */
    enum Kind { CUBIN, SASS }

    record Output(Kind kind, String name, byte[] bytes) {}

    /** The bytes of input file {@code name}; throws when it cannot be read. */
    byte[] read(String name) throws IOException, SecurityException, InvalidPathException;

    /** Writes every output or, on failure, none; the failure's message is ptxas's one-line fatal text. */
    void write(List<Output> outputs) throws OutputFailure;

    /** Told about every diagnostic the run prints, in order, after -w and -Werror applied. */
    default void reported(Diagnostic diagnostic) {}

    /** Told the resources of what compiled, function by function, before the outputs are written. */
    default void compiled(List<ResourceReport.FunctionUsage> usage) {}

    /** An output that could not be written; the message names it as ptxas does. */
    final class OutputFailure extends Exception {
        private static final long serialVersionUID = 1L;

        OutputFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** Files relative to {@code workDir}; the outputs are written together, each through a temporary file. */
    static Workspace files(Path workDir) {
        return new Workspace() {
            @Override
            public byte[] read(String name) throws IOException {
                return Files.readAllBytes(workDir.resolve(name));
            }

            @Override
            public void write(List<Output> outputs) throws OutputFailure {
                AtomicFiles.Transaction transaction = new AtomicFiles.Transaction();
                String writing = null;
                try {
                    for (Output o : outputs) {
                        writing = o.name();
                        transaction.stage(workDir.resolve(o.name()), o.bytes());
                    }
                    transaction.commit();
                } catch (AtomicFiles.NotWritten e) {
                    throw new OutputFailure("Output file '" + writing + "' could not be written: " + e.getMessage());
                } catch (IOException | SecurityException | InvalidPathException e) {
                    // one line, as ptxas prints it (no 'aborted' line after it)
                    throw new OutputFailure("Output file '" + writing + "' could not be opened");
                } finally {
                    transaction.abandon();
                }
            }
        };
    }
}
