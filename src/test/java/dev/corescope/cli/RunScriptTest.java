package dev.corescope.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run.sh} itself, in a scratch copy of the checkout whose {@code mvnw} and JDK are
 * stand-ins: the "build" writes a jar after a second (and fails, as two Maven builds into one
 * {@code target/} do, when another build is under way), and {@code java} writes its arguments
 * to a file instead of starting. So each test takes about a second, without Maven or a real
 * build.
 */
class RunScriptTest {

    private static final Path RUN_SH = Path.of("run.sh").toAbsolutePath();
    private static final Path REAL_JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    Path checkout;
    private Path fakeJdk;

    @BeforeEach
    void scratchCheckout() throws IOException {
        Files.copy(RUN_SH, checkout.resolve("run.sh"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        executable(checkout.resolve("mvnw"), """
                #!/usr/bin/env bash
                # a build that refuses to run beside another one, as two Maven builds of one target/ collide
                here=$(cd "$(dirname "$0")" && pwd)
                mkdir "$here/building" 2>/dev/null || { echo "fake mvnw: another build is running" >&2; exit 1; }
                out="$here/target/corescope.jar"
                for a in "$@"; do case $a in -Dcorescope.jarOutput=*) out=${a#*=} ;; esac; done
                mkdir -p "$here/target"
                printf 'PK\003\004 a jar begun' > "$out"
                [ -f "$here/slow-build" ] && sleep 30
                sleep 1
                printf 'PK\005\006 and ended' >> "$out"
                echo built >> "$here/builds.log"
                echo "${CORESCOPE_BUILD_LOCK-}" > "$here/lock-seen"
                rmdir "$here/building"
                """);
        fakeJdk = checkout.resolve("jdk");
        Files.createDirectories(fakeJdk.resolve("bin"));
        Files.writeString(fakeJdk.resolve("release"), "JAVA_VERSION=\"25\"\n");
        executable(fakeJdk.resolve("bin/javac"), "#!/bin/sh\nexit 0\n");
        executable(fakeJdk.resolve("bin/java"), """
                #!/usr/bin/env bash
                # an AOT training run writes a cache file; any other run records its arguments, one a line
                for a in "$@"; do
                  case $a in -XX:AOTCacheOutput=*) echo aot > "${a#*=}"; exit 0 ;; esac
                done
                printf '%s\\n' "$@" > "$(dirname "$0")/../../java-args.$$"
                """);
    }

    @Test
    void twoFirstRunsAtOnceBothSucceedAndBuildOnce() throws Exception {
        Process a = runSh(List.of(), "mask", "1");
        Process b = runSh(List.of(), "mask", "2");
        String errA = finish(a);
        String errB = finish(b);
        assertEquals(0, a.exitValue(), "first run: " + errA);
        assertEquals(0, b.exitValue(), "second run: " + errB);
        assertEquals(List.of("built"), Files.readAllLines(checkout.resolve("builds.log")),
                "the second run waits for the first build and then finds the jar fresh");
    }

    /**
     * Ctrl-C during the first build (issue 23, point 14): exit 130 with "interrupted", not "the
     * build failed"; no jar is left behind; the next run builds again and runs.
     */
    @Test
    void anInterruptedBuildLeavesNoJarAndTheNextRunBuildsAgain() throws Exception {
        Files.writeString(checkout.resolve("slow-build"), "");
        // --default-signal=INT: a suite started as a background job of a script inherits SIGINT ignored,
        // which no trap can undo; a terminal's Ctrl-C reaches a run.sh whose SIGINT is at its default
        List<String> cmd = new ArrayList<>(List.of("setsid", "env", "--default-signal=INT", "-u", "JAVA_HOME", "-u", "CORESCOPE_JVM_OPTS",
                "CORESCOPE_JAVA_HOME=" + fakeJdk, "CORESCOPE_AOT=1", "bash", checkout.resolve("run.sh").toString(), "mask", "1"));
        Process p = new ProcessBuilder(cmd).directory(checkout.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Path partial = checkout.resolve("target/.corescope.jar.partial");
        for (int i = 0; i < 600 && !Files.exists(partial); i++) Thread.sleep(50);
        assertTrue(Files.exists(partial), "the build began");
        assertEquals(0, new ProcessBuilder("kill", "-INT", "--", "-" + p.pid()).inheritIO().start().waitFor(), "Ctrl-C to the group");
        String err = finish(p);
        assertEquals(130, p.exitValue(), err);
        assertTrue(err.contains("the build was interrupted"), err);
        assertFalse(err.contains("the build failed"), err);
        assertFalse(Files.exists(checkout.resolve("target/corescope.jar")), "no jar");
        assertFalse(Files.exists(partial), "no half jar");
        Files.delete(checkout.resolve("slow-build"));
        Files.deleteIfExists(checkout.resolve("building"));  // the killed fake build's own lock
        Process again = runSh(List.of(), "mask", "1");
        String err2 = finish(again);
        assertEquals(0, again.exitValue(), err2);
        assertTrue(err2.contains("building target/corescope.jar"), err2);
    }

    /** The first short command after a build says, in one line, why it takes longer; the next one does not. */
    @Test
    void theFirstShortCommandSaysOnceThatItPreparesTheStartUpCache() throws Exception {
        Process first = runSh(List.of(), "mask", "1");
        String err = finish(first);
        assertEquals(0, first.exitValue(), err);
        assertEquals(1, err.lines().filter(l -> l.contains("preparing the start-up cache")).count(), err);
        Process second = runSh(List.of(), "mask", "2");
        String err2 = finish(second);
        assertFalse(err2.contains("start-up cache"), err2);
    }

    /** A broken jar left by an older run.sh (a 54-byte zip start, no end) is built again, not run. */
    @Test
    void aBrokenJarIsRebuilt() throws Exception {
        Files.createDirectories(checkout.resolve("target"));
        Files.write(checkout.resolve("target/corescope.jar"), new byte[]{'P', 'K', 3, 4, 20, 0, 8, 8});
        Process p = runSh(List.of(), "mask", "1");
        String err = finish(p);
        assertEquals(0, p.exitValue(), err);
        assertEquals(List.of("built"), Files.readAllLines(checkout.resolve("builds.log")), err);
        Process q = runSh(List.of(), "mask", "2");
        finish(q);
        assertEquals(List.of("built"), Files.readAllLines(checkout.resolve("builds.log")), "a good jar is not built again");
    }

    @Test
    void theUsersGcWinsOverTheSerialGcOfTheShortCommands() throws Exception {
        List<String> args = javaArgs("-XX:+UseG1GC", "mask", "1");
        assertTrue(args.contains("-XX:+UseG1GC"), args.toString());
        assertFalse(args.contains("-XX:+UseSerialGC"), "corescope's default GC left in beside the user's: " + args);
        assertRealJvmStartsWith(args);
    }

    @Test
    void theUsersJitAndAotSettingsReplaceCorescopesOwn() throws Exception {
        List<String> defaults = javaArgs("", "affinity");
        assertTrue(defaults.stream().anyMatch(a -> a.startsWith("-XX:AOTCache=")),
                "without user options the short commands get corescope's AOT cache");
        assertTrue(defaults.contains("-XX:CompileCommand=exclude,jdk.internal.foreign.abi.*::*"), defaults.toString());
        clearRecordedArgs();
        List<String> own = javaArgs("-XX:CompileCommand=print,java.lang.String::hashCode", "affinity");
        assertTrue(own.stream().noneMatch(a -> a.startsWith("-XX:CompileCommand=exclude")), "the user's CompileCommand replaces corescope's: " + own);
        assertRealJvmStartsWith(defaults);
        clearRecordedArgs();
        List<String> args = javaArgs("-XX:TieredStopAtLevel=4 -XX:AOTMode=off", "affinity");
        assertFalse(args.contains("-XX:TieredStopAtLevel=1"), args.toString());
        assertTrue(args.stream().noneMatch(a -> a.startsWith("-XX:AOTCache=")), args.toString());
        assertRealJvmStartsWith(args);
    }

    /** Issue 28: JSON runs get a cache trained on the JSON forms; text runs keep the lean one. */
    @Test
    void aJsonRunGetsTheJsonCacheAndATextRunTheTextOne() throws Exception {
        String json = cacheOf(javaArgs("", "topology", "--format", "json"));
        assertTrue(json.endsWith("-json.aot"), json);
        clearRecordedArgs();
        assertEquals(json, cacheOf(javaArgs("", "mask", "--format=json", "1")));
        clearRecordedArgs();
        String text = cacheOf(javaArgs("", "mask", "1"));
        assertFalse(text.endsWith("-json.aot"), text);
        clearRecordedArgs();
        assertEquals(text, cacheOf(javaArgs("", "pin", "--cpus", "0", "--", "tool", "--format", "json")),
                "pin's command's own options are not corescope's");
    }

    /** Issues 28 and 35: report and compare run with the serial GC, a small eden and C1 alone, unless the user names their own. */
    @Test
    void reportAndCompareGetTheSerialGc() throws Exception {
        assertTrue(javaArgs("", "compare", "a.json", "b.json").contains("-XX:+UseSerialGC"));
        clearRecordedArgs();
        assertTrue(javaArgs("", "report", "a.json", "-o", "x.html").contains("-XX:+UseSerialGC"));
        clearRecordedArgs();
        assertTrue(javaArgs("", "report", "a.json", "--format", "text").contains("-Xmn16m"), "issue 35: a small eden");
        clearRecordedArgs();
        assertFalse(javaArgs("-Xmn64m", "compare", "a.json", "b.json").contains("-Xmn16m"), "the user's own size wins");
        clearRecordedArgs();
        assertTrue(javaArgs("", "report", "a.json", "-o", "x.html").contains("-XX:TieredStopAtLevel=1"), "issue 35: C1 alone");
        clearRecordedArgs();
        assertFalse(javaArgs("-XX:-TieredCompilation", "compare", "a.json", "b.json").contains("-XX:TieredStopAtLevel=1"),
                "the user's own tiers win");
        clearRecordedArgs();
        List<String> own = javaArgs("-XX:+UseParallelGC", "compare", "a.json", "b.json");
        assertFalse(own.contains("-XX:+UseSerialGC"), own.toString());
        clearRecordedArgs();
        assertFalse(javaArgs("", "bench", "c2c").contains("-XX:+UseSerialGC"), "benchmarks keep the JVM's default GC");
    }

    /** Issue 28: the short commands get a small young generation (peak RSS of a big tree's read), unless the user sizes it. */
    @Test
    void shortCommandsGetASmallYoungGenerationUnlessTheUserSizesIt() throws Exception {
        assertTrue(javaArgs("", "topology", "--root", "t").contains("-Xmn16m"));
        clearRecordedArgs();
        assertTrue(javaArgs("", "mask", "0-3").contains("-Xmn16m"));
        clearRecordedArgs();
        List<String> own = javaArgs("-XX:NewSize=64m", "topology");
        assertFalse(own.contains("-Xmn16m"), own.toString());
        clearRecordedArgs();
        assertFalse(javaArgs("", "bench", "c2c").contains("-Xmn16m"), "benchmarks keep the JVM's default heap");
    }

    private static String cacheOf(List<String> args) {
        return args.stream().filter(a -> a.startsWith("-XX:AOTCache=")).findFirst().orElseThrow(() -> new AssertionError(args.toString()));
    }

    @Test
    void userOptionsComeLastSoTheirValueWins() throws Exception {
        List<String> args = javaArgs("-XX:+UsePerfData", "topology");
        int jar = args.indexOf("-cp");
        assertEquals(jar - 1, args.lastIndexOf("-XX:+UsePerfData"), args.toString());
        // the jar on the class path and the entry point by name (no -jar: see run.sh), then the command
        assertEquals(List.of(Launcher.class.getName(), "topology"), args.subList(jar + 2, args.size()), args.toString());
        assertTrue(args.indexOf("-XX:-UsePerfData") < args.lastIndexOf("-XX:+UsePerfData"), args.toString());
    }

    private void clearRecordedArgs() throws IOException {
        try (var files = Files.list(checkout)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("java-args.")).toList()) Files.delete(f);
        }
    }

    /**
     * A plain {@code ./mvnw} takes the lock run.sh builds under (issue 23): while something holds
     * {@code target/.build.lock} it says so and waits, and Maven starts only once the lock is
     * free; the mvnw that run.sh starts under the lock is told so and does not wait for it. The
     * real mvnw, in a scratch checkout whose Maven distribution is a script that records its start.
     */
    @Test
    void aPlainMvnwWaitsForTheBuildLockAndTheMvnwOfRunShDoesNot() throws Exception {
        Path real = checkout.resolve("real");
        Files.createDirectories(real.resolve(".mvn/wrapper"));
        Files.createDirectories(real.resolve("target"));
        Files.copy(Path.of("mvnw").toAbsolutePath(), real.resolve("mvnw"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Path props = Path.of(".mvn/wrapper/maven-wrapper.properties").toAbsolutePath();
        Files.copy(props, real.resolve(".mvn/wrapper/maven-wrapper.properties"));
        String url = Files.readAllLines(props).stream().filter(l -> l.startsWith("distributionUrl="))
                .findFirst().orElseThrow().substring("distributionUrl=".length()).strip();
        String main = url.substring(url.lastIndexOf('/') + 1).replaceFirst("\\.zip$", "").replaceFirst("-bin$", "");
        Path mavenHome = real.resolve("m2/wrapper/dists").resolve(main).resolve(Integer.toHexString(url.hashCode()));
        Files.createDirectories(mavenHome.resolve("bin"));
        Path started = real.resolve("maven-started");
        executable(mavenHome.resolve("bin/mvn"), "#!/bin/sh\necho \"$@\" >> '" + started + "'\n");
        Path lock = real.resolve("target/.build.lock");

        Process holder = new ProcessBuilder("flock", lock.toString(), "-c", "echo locked; read x").start();
        try {
            assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8)).readLine());
            Process mvnw = mvnw(real, List.of(), "-v");
            String firstLine = new java.io.BufferedReader(new java.io.InputStreamReader(mvnw.getErrorStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(firstLine != null && firstLine.contains("waiting for it to end"), String.valueOf(firstLine));
            assertTrue(mvnw.isAlive(), "mvnw waits while the lock is held");
            assertFalse(Files.exists(started), "Maven did not start while the lock was held");

            holder.getOutputStream().close();  // the holder ends: the lock is free
            assertTrue(mvnw.waitFor(60, TimeUnit.SECONDS), "mvnw did not go on after the lock was freed");
            assertEquals(0, mvnw.exitValue());
            assertEquals(List.of("-v"), Files.readAllLines(started));
        } finally {
            holder.destroy();
            holder.waitFor(60, TimeUnit.SECONDS);
        }

        Process again = new ProcessBuilder("flock", lock.toString(), "-c", "echo locked; read x").start();
        try {
            assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(again.getInputStream(), StandardCharsets.UTF_8)).readLine());
            Process underRunSh = mvnw(real, List.of("CORESCOPE_BUILD_LOCK=" + lock), "-q");
            String err = finish(underRunSh);
            assertEquals(0, underRunSh.exitValue(), err);
            assertFalse(err.contains("waiting"), err);
            assertEquals(List.of("-v", "-q"), Files.readAllLines(started));
        } finally {
            again.getOutputStream().close();
            again.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** run.sh tells the mvnw it runs which lock it holds (so that mvnw does not wait for run.sh). */
    @Test
    void runShNamesTheLockItHoldsToItsMvnw() throws Exception {
        Process p = runSh(List.of(), "mask", "1");
        String err = finish(p);
        assertEquals(0, p.exitValue(), err);
        assertEquals(List.of(checkout.resolve("target/.build.lock").toString()), Files.readAllLines(checkout.resolve("lock-seen")));
    }

    private static Process mvnw(Path dir, List<String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("env", "-u", "CORESCOPE_BUILD_LOCK", "CORESCOPE_MVNW_KEEP_JDK=1",
                "JAVA_HOME=" + System.getProperty("java.home"), "MAVEN_USER_HOME=" + dir.resolve("m2")));
        cmd.addAll(env);
        cmd.add(dir.resolve("mvnw").toString());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** The java command line run.sh builds for {@code command} with {@code CORESCOPE_JVM_OPTS=opts}. */
    private List<String> javaArgs(String opts, String... command) throws Exception {
        Files.createDirectories(checkout.resolve("target"));
        Files.writeString(checkout.resolve("target/corescope.jar"), "jar\n");
        Process p = runSh(List.of("CORESCOPE_JVM_OPTS=" + opts), command);
        String err = finish(p);
        assertEquals(0, p.exitValue(), err);
        try (var files = Files.list(checkout)) {
            Path recorded = files.filter(f -> f.getFileName().toString().startsWith("java-args.")).findFirst().orElseThrow();
            return Files.readAllLines(recorded);
        }
    }

    /** The real JVM accepts the JVM options of {@code args} (everything before {@code -cp JAR Launcher}). */
    private static void assertRealJvmStartsWith(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(REAL_JAVA.toString());
        cmd.addAll(args.subList(0, args.indexOf("-cp")));
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "java " + cmd + ":\n" + out);
    }

    private Process runSh(List<String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("env", "-u", "JAVA_HOME", "-u", "CORESCOPE_JVM_OPTS",
                "CORESCOPE_JAVA_HOME=" + fakeJdk, "CORESCOPE_AOT=1"));
        cmd.addAll(env);
        cmd.add("bash");
        cmd.add(checkout.resolve("run.sh").toString());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(checkout.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static String finish(Process p) throws Exception {
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "run.sh did not finish");
        return err;
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
