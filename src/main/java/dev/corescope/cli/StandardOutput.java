package dev.corescope.cli;

import dev.corescope.text.Terminal;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;

/**
 * stdout that remembers its first failed write ({@link System#out} swallows errors):
 * {@link #finish} turns it into exit 1 with one line on stderr (CONTRACT.md), so
 * {@code corescope topology > /dev/full} does not exit 0 with the output lost.
 *
 * <p>It is also the last guard of the terminal: no control character but newline and tab
 * reaches file descriptor 1 raw; C0 and C1 controls, DEL, U+2028/U+2029 and the bidirectional
 * overrides are written as {@link Terminal#escape} writes them. (Each sink escapes its strings
 * too, newlines included: this guard cannot tell an input's newline from the output's own.)
 */
final class StandardOutput extends OutputStream {

    private final OutputStream fd;
    private volatile IOException failure;
    /** The stream {@link #install} put in place, for {@link #muteAfterInterrupt}. */
    private static volatile StandardOutput installed;
    /** Set when a signal stops the run: nothing more reaches stdout (a JMH fork's dying words included). */
    private volatile boolean muted;
    /** The lead bytes of a UTF-8 sequence not yet complete at the end of the last write (0 to 2 of them). */
    private final byte[] pending = new byte[2];
    private int npending;

    StandardOutput(OutputStream fd) {
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
        installed = s;
        return s;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[]{(byte) b}, 0, 1);
    }

    /**
     * After Ctrl-C (or SIGTERM) stops a run, stdout stays clean: what is printed from then on
     * (a forked JMH JVM that the signal reached too prints its stack trace, and JMH's host relays
     * it to stdout) is dropped. The run's own interrupt line goes to stderr.
     */
    static void muteAfterInterrupt() {
        StandardOutput s = installed;
        if (s != null) s.muted = true;
    }

    /** Undoes {@link #muteAfterInterrupt} when the signal came after the run had finished, so its output goes on. */
    static void unmute() {
        StandardOutput s = installed;
        if (s != null) s.muted = false;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (muted || brokenPipe(failure)) return;  // a closed pipe: the rest is dropped quietly, as cat would stop
        try {
            byte[] safe = safe(b, off, len);
            if (safe == null) fd.write(b, off, len);
            else fd.write(safe);
        } catch (IOException e) {
            record(e);
            throw e;
        }
    }

    /**
     * {@code b[off, off + len)} with control characters escaped, or null when it holds none
     * (the common case: written as it is). A UTF-8 sequence cut by the end of the write is kept
     * for the next.
     */
    private byte[] safe(byte[] b, int off, int len) {
        if (npending == 0) {
            int i = off;
            int end = off + len;
            while (i < end && clean(b[i])) i++;
            if (i == end) return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len + 16);
        byte[] all = b;
        int start = off;
        int end = off + len;
        if (npending > 0) {
            all = new byte[npending + len];
            System.arraycopy(pending, 0, all, 0, npending);
            System.arraycopy(b, off, all, npending, len);
            start = 0;
            end = all.length;
            npending = 0;
        }
        for (int i = start; i < end; i++) {
            int c = all[i] & 0xff;
            if (c < 0x20 && c != '\n' && c != '\t' || c == 0x7f) {
                escape(out, c);
            } else if (c == 0xc2 || c == 0xe2) {
                int need = c == 0xc2 ? 2 : 3;
                if (end - i < need) {  // cut: finish it on the next write
                    npending = end - i;
                    System.arraycopy(all, i, pending, 0, npending);
                    break;
                }
                int cp = c == 0xc2 ? ((c & 0x1f) << 6) | (all[i + 1] & 0x3f)
                        : ((c & 0x0f) << 12) | ((all[i + 1] & 0x3f) << 6) | (all[i + 2] & 0x3f);
                boolean cont = (all[i + 1] & 0xc0) == 0x80 && (need == 2 || (all[i + 2] & 0xc0) == 0x80);
                if (cont && (cp >= 0x80 && cp < 0xa0 || cp == 0x2028 || cp == 0x2029 || cp >= 0x202a && cp <= 0x202e
                        || cp >= 0x2066 && cp <= 0x2069 || cp == 0x200e || cp == 0x200f)) {
                    out.writeBytes(String.format("\\u%04x", cp).getBytes(StandardCharsets.US_ASCII));
                    i += need - 1;
                } else {
                    out.write(c);
                }
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    /** A byte that needs no look: not a C0 control (but newline and tab), DEL, or a lead byte of a C1 or bidi character. */
    private static boolean clean(byte b) {
        int c = b & 0xff;
        return (c >= 0x20 || c == '\n' || c == '\t') && c != 0x7f && c != 0xc2 && c != 0xe2;
    }

    private static void escape(ByteArrayOutputStream out, int c) {
        String e = switch (c) {
            case 0x1b -> "\\e";
            case '\r' -> "\\r";
            default -> String.format("\\x%02x", c);
        };
        out.writeBytes(e.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public void flush() throws IOException {
        if (muted || brokenPipe(failure)) return;
        try {
            fd.flush();
        } catch (IOException e) {
            record(e);
            throw e;
        }
    }

    /** Writes the bytes of a UTF-8 sequence the output ended in the middle of (invalid, but the output's own). */
    synchronized void drain() {
        if (npending == 0 || muted || brokenPipe(failure)) return;
        try {
            fd.write(pending, 0, npending);
            fd.flush();
        } catch (IOException e) {
            record(e);
        }
        npending = 0;
    }

    private void record(IOException e) {
        if (failure == null) failure = e;
    }

    /** EPIPE: the read end of stdout's pipe was closed. */
    static boolean brokenPipe(IOException e) {
        return e != null && e.getMessage() != null && e.getMessage().contains("Broken pipe");
    }

    /**
     * Flushes stdout and returns the exit code: {@code code}, or 1 with one line on
     * {@code err} when anything written to stdout was lost (unless the command already failed).
     */
    int finish(int code, PrintStream err) {
        System.out.flush();
        drain();
        if (failure == null) return code;
        if (brokenPipe(failure)) {
            // the reader went away (| head): a quiet stop, with the status a shell gives cat killed by SIGPIPE
            return code == Main.EXIT_OK || code == Main.EXIT_PARTIAL ? Main.EXIT_BROKEN_PIPE : code;
        }
        if (code == Main.EXIT_OK || code == Main.EXIT_PARTIAL) {
            err.println("corescope: cannot write to standard output (" + Main.reason(failure) + "); the output is lost");
            err.flush();
            return Main.EXIT_FAILURE;
        }
        return code;
    }
}
