package dev.corescope.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;

/**
 * stdout that remembers its first failed write. {@link System#out} swallows errors, so
 * {@code corescope topology > /dev/full} used to exit 0 with the output lost; {@link #install()}
 * puts a stream in its place that records the failure, and {@link #finish} turns it into exit 1
 * with one line on stderr (CONTRACT.md: a failed write of the main output is a runtime failure).
 */
final class StandardOutput extends OutputStream {

    private final OutputStream fd;
    private volatile IOException failure;

    private StandardOutput(OutputStream fd) {
        this.fd = fd;
    }

    /** Replaces {@link System#out} with a checked stream on file descriptor 1; call once, first thing in main. */
    static StandardOutput install() {
        StandardOutput s = new StandardOutput(new FileOutputStream(FileDescriptor.out));
        String enc = System.getProperty("stdout.encoding", System.getProperty("native.encoding", "UTF-8"));
        PrintStream ps;
        try {
            ps = new PrintStream(new BufferedOutputStream(s, 8192), true, enc);
        } catch (UnsupportedEncodingException e) {
            ps = new PrintStream(new BufferedOutputStream(s, 8192), true);
        }
        System.setOut(ps);
        return s;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            fd.write(b);
        } catch (IOException e) {
            record(e);
            throw e;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            fd.write(b, off, len);
        } catch (IOException e) {
            record(e);
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            fd.flush();
        } catch (IOException e) {
            record(e);
            throw e;
        }
    }

    private void record(IOException e) {
        if (failure == null) failure = e;
    }

    /** The first failed write, or null. */
    IOException failure() {
        return failure;
    }

    /**
     * Flushes stdout and returns the exit code: {@code code}, or 1 with one line on
     * {@code err} when anything written to stdout was lost (unless the command already failed).
     */
    int finish(int code, PrintStream err) {
        System.out.flush();
        if (failure == null) return code;
        if (code == Main.EXIT_OK || code == Main.EXIT_PARTIAL) {
            err.println("corescope: cannot write to standard output (" + Main.reason(failure) + "); the output is lost");
            err.flush();
            return Main.EXIT_FAILURE;
        }
        return code;
    }
}
