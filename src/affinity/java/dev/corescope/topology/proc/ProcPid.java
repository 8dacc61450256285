package dev.corescope.topology.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@code /proc/<pid>/status} and {@code /proc/<pid>/comm} say of another process: its
 * effective uid and its command name, as much as can be read (a process that is gone, or in
 * another pid namespace, has neither).
 *
 * @param pid the process
 * @param uid the effective uid (the second field of {@code Uid:}); empty when unknown
 * @param command {@code comm}, spaces turned to {@code _}; empty when unknown
 */
public record ProcPid(long pid, Optional<String> uid, Optional<String> command) {

    /** {@return what can be read of another process under {@code root}; uid and command empty for a process that is gone} */
    public static ProcPid read(Path root, long pid) {
        SysfsReader r = new SysfsReader(root);
        String dir = "proc/" + pid + "/";
        Optional<String> uid = r.readLines(dir + "status").flatMap(ProcPid::effectiveUid);
        Optional<String> cmd = r.read(dir + "comm").map(c -> c.replace(' ', '_')).filter(c -> !c.isEmpty());
        return new ProcPid(pid, uid, cmd);
    }

    /** {@return this process's effective uid: the owner of {@code /proc/self}} */
    public static int selfUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    static Optional<String> effectiveUid(List<String> status) {
        for (String line : status) {
            if (!line.startsWith("Uid:")) continue;
            String[] f = line.substring(4).trim().split("\\s+");
            return f.length > 1 ? Optional.of(f[1]) : Optional.empty();
        }
        return Optional.empty();
    }
}
