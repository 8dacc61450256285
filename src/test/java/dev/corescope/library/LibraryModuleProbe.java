package dev.corescope.library;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleReader;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Run by {@link LibraryModuleTest} in a JVM of its own: the library's module {@code dev.corescope}
 * alone on the module path (no Jackson, no JMH, no tool), this class in the unnamed module, which
 * is NOT granted native access. Prints one line per finding:
 * <ul>
 *   <li>{@code API ...}: the exported API, one line per public type and member, sorted;</li>
 *   <li>{@code MISSING class: what}: a signature that does not resolve with the jar alone;</li>
 *   <li>{@code PROBLEM ...}: a way to raw memory or a native capability from outside;</li>
 *   <li>{@code DENIED ...}: a capability the module boundary kept from this class;</li>
 *   <li>{@code WORKS ...}: the calls that needed Jackson before, run for real.</li>
 * </ul>
 */
public final class LibraryModuleProbe {

    /** Types that are raw memory or a native capability when handed out. */
    private static final Set<Class<?>> CAPABILITIES = Set.of(MemorySegment.class, Linker.class, SymbolLookup.class,
            MethodHandle.class, MethodHandles.Lookup.class, VarHandle.class);

    /**
     * Classes that hand out a capability (pin any thread by pid, close or chmod any file
     * descriptor, method handles to libc, a second way to pin or to read the current CPU): they
     * must live in a package the module does not export (issue #24 points 3 and 10).
     */
    private static final Set<String> CAPABILITY_CLASSES = Set.of("Affinity", "CurrentCpu", "Flock", "Threads",
            "NativeCalls", "Libc", "Os", "ThreadPin", "BeneathDirectory");

    /** The one public way to pin (and Reservation's pin to its own CPU), and the one current CPU. */
    private static final Set<String> PIN_METHODS = Set.of("dev.corescope.affinity.ThreadAffinity.pin",
            "dev.corescope.affinity.Reservation.pin");
    private static final String CURRENT_CPU = "dev.corescope.affinity.ThreadAffinity.currentCpu";

    private LibraryModuleProbe() {
    }

    public static void main(String[] args) throws Exception {
        Module self = LibraryModuleProbe.class.getModule();
        if (self.isNativeAccessEnabled()) System.out.println("PROBLEM the probe itself has native access: the check proves nothing");
        ResolvedModule lib = ModuleLayer.boot().configuration().findModule("dev.corescope").orElseThrow();
        Module module = ModuleLayer.boot().findModule("dev.corescope").orElseThrow();
        ModuleDescriptor d = lib.reference().descriptor();
        Set<String> exported = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
        System.out.println("API module " + d.name() + " exports " + String.join(", ", exported));
        for (ModuleDescriptor.Requires r : new TreeSet<>(d.requires())) {
            if (!r.name().startsWith("java.")) System.out.println("API module requires " + r.modifiers().stream().map(Object::toString).sorted().collect(Collectors.joining(" ")) + " " + r.name());
        }

        List<String> classes = new ArrayList<>();
        try (ModuleReader reader = lib.reference().open()) {
            reader.list().filter(n -> n.endsWith(".class") && !n.equals("module-info.class")).forEach(n ->
                    classes.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
        }
        TreeSet<String> api = new TreeSet<>();
        for (String name : classes) {
            String pkg = name.substring(0, name.lastIndexOf('.'));
            if (!exported.contains(pkg)) continue;
            Class<?> c;
            try {
                c = Class.forName(name, true, module.getClassLoader());
            } catch (Throwable t) {
                System.out.println("MISSING " + name + ": " + rootCause(t));
                continue;
            }
            if (!isApi(c)) continue;
            try {
                describe(c, api);
            } catch (Throwable t) {
                System.out.println("MISSING " + name + ": " + rootCause(t));
            }
        }
        api.forEach(a -> System.out.println("API " + a));
        capabilitiesStayInside(classes, exported, module);

        // the tool's internals are not in the library at all
        for (String internal : List.of("RawMemory", "Exec", "TwinLinker", "NativeLibrary", "ElfSymbolTable",
                "PthreadSpinLock", "SignalMask", "BatchTime")) {
            try {
                Class.forName("dev.corescope.sys." + internal, false, module.getClassLoader());
                System.out.println("PROBLEM dev.corescope.sys." + internal + " is in the library");
            } catch (ClassNotFoundException expected) {
                // good
            }
        }
        works();
        // corescope-jmh beside it: the automatic module dev.corescope.jmh, which needs nothing the library keeps inside
        ModuleLayer.boot().findModule("dev.corescope.jmh").ifPresent(jmh -> {
            try {
                Class<?> c = Class.forName("dev.corescope.jmh.PinningProfiler", true, jmh.getClassLoader());
                c.getDeclaredMethods();
                System.out.println("JMH " + c.getName() + " loads in " + c.getModule().getName());
            } catch (Throwable t) {
                System.out.println("MISSING dev.corescope.jmh.PinningProfiler: " + rootCause(t));
            }
        });
    }

    /**
     * The capability classes are in the library, none in an exported package, and a module
     * without native access cannot reach them (it gets no method handle to {@code Flock.close}).
     */
    private static void capabilitiesStayInside(List<String> classes, Set<String> exported, Module module) throws Exception {
        for (String simple : new TreeSet<>(CAPABILITY_CLASSES)) {
            List<String> found = classes.stream().filter(n -> n.substring(n.lastIndexOf('.') + 1).equals(simple)).toList();
            if (found.isEmpty()) System.out.println("PROBLEM no class " + simple + " in the library: renamed? update CAPABILITY_CLASSES");
            for (String name : found) {
                String pkg = name.substring(0, name.lastIndexOf('.'));
                if (exported.contains(pkg) || module.isExported(pkg)) System.out.println("PROBLEM " + name + " is exported");
            }
        }
        Class<?> flock = Class.forName("dev.corescope.sys.internal.Flock", false, module.getClassLoader());
        try {
            MethodHandles.publicLookup().findStatic(flock, "close", java.lang.invoke.MethodType.methodType(void.class, int.class));
            System.out.println("PROBLEM a module without native access reached Flock.close(int fd)");
        } catch (IllegalAccessException expected) {
            System.out.println("DENIED Flock.close");
        }
    }

    /** The calls that failed with NoClassDefFoundError for Jackson before (issue #24 point 4). */
    private static void works() throws Exception {
        Class<?> topology = Class.forName("dev.corescope.topology.Topology");
        Object t = topology.getMethod("live").invoke(null);
        String json = (String) Class.forName("dev.corescope.topology.TopologyJson").getMethod("render", topology).invoke(null, t);
        System.out.println("WORKS TopologyJson.render " + (json.startsWith("{") && json.contains("\"packages\"")));
        Path dir = Files.createTempDirectory("corescope-capture");
        Path out = dir.resolve("machine.tar.gz");
        Class.forName("dev.corescope.topology.Capture").getMethod("write", topology, Path.class).invoke(null, t, out);
        System.out.println("WORKS Capture.write " + (Files.size(out) > 0));
        Files.delete(out);
        Files.delete(dir);
        Class<?> ta = Class.forName("dev.corescope.affinity.ThreadAffinity");
        int cpu = (int) ta.getMethod("currentCpu").invoke(null);
        System.out.println("WORKS ThreadAffinity.currentCpu " + (cpu >= 0));
    }

    private static boolean isApi(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) && !Modifier.isProtected(k.getModifiers())) return false;
        }
        return !c.isSynthetic() && !c.isAnonymousClass();
    }

    private static void describe(Class<?> c, Set<String> api) {
        String type = c.getName();
        api.add(type + " " + kind(c) + supertypes(c));
        for (Field f : c.getDeclaredFields()) {
            if (!visible(f) || f.isSynthetic()) continue;
            check(type + "." + f.getName(), f.getGenericType());
            if (Modifier.isStatic(f.getModifiers())) {
                try {
                    Object v = f.get(null);
                    if (v != null && isCapability(v.getClass())) {
                        System.out.println("PROBLEM " + type + "." + f.getName() + " holds a " + v.getClass().getName());
                    }
                } catch (IllegalAccessException e) {
                    // not readable from here: fine
                }
            }
            api.add(type + " field " + mods(f) + name(f.getGenericType()) + " " + f.getName());
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!visible(k) || k.isSynthetic()) continue;
            Arrays.stream(k.getGenericParameterTypes()).forEach(p -> check(type + ".<init>", p));
            api.add(type + " constructor (" + names(k.getGenericParameterTypes()) + ")" + throwsClause(k.getGenericExceptionTypes()));
        }
        for (Method m : c.getDeclaredMethods()) {
            if (!visible(m) || m.isSynthetic() || m.isBridge()) continue;
            check(type + "." + m.getName() + "()", m.getGenericReturnType());
            oneWay(type, m);
            api.add(type + " method " + mods(m) + name(m.getGenericReturnType()) + " " + m.getName()
                    + "(" + names(m.getGenericParameterTypes()) + ")" + throwsClause(m.getGenericExceptionTypes()));
        }
        if (c.isRecord()) {
            for (RecordComponent r : c.getRecordComponents()) check(type + "." + r.getName(), r.getGenericType());
        }
    }

    /** A second public way to pin, or to read the current CPU, is a problem (issue #24 point 10). */
    private static void oneWay(String type, Method m) {
        String name = type + "." + m.getName();
        if (m.getReturnType().getName().equals("dev.corescope.sys.Pinning") && !PIN_METHODS.contains(name)) {
            System.out.println("PROBLEM " + name + " is a second public way to pin (use affinity.ThreadAffinity.pin)");
        }
        if (m.getName().toLowerCase(java.util.Locale.ROOT).startsWith("currentcpu") && !name.equals(CURRENT_CPU)) {
            System.out.println("PROBLEM " + name + " is a second public current CPU (use affinity.ThreadAffinity.currentCpu)");
        }
    }

    private static String kind(Class<?> c) {
        String mods = Modifier.toString(c.getModifiers() & (Modifier.ABSTRACT | Modifier.FINAL | Modifier.STATIC))
                .replace("abstract interface", "interface");
        String k = c.isRecord() ? "record" : c.isEnum() ? "enum" : c.isAnnotation() ? "@interface" : c.isInterface() ? "interface" : "class";
        if (c.isInterface() || c.isEnum() || c.isRecord()) mods = Modifier.toString(c.getModifiers() & Modifier.STATIC);
        if (c.isSealed()) mods = (mods.isEmpty() ? "" : mods + " ") + "sealed";
        return (mods.isEmpty() ? "" : mods + " ") + k;
    }

    private static String supertypes(Class<?> c) {
        List<String> s = new ArrayList<>();
        Type sup = c.getGenericSuperclass();
        if (sup != null && sup != Object.class && !c.isEnum() && !c.isRecord()) s.add(name(sup));
        for (Type i : c.getGenericInterfaces()) s.add(name(i));
        return s.isEmpty() ? "" : " : " + String.join(", ", s);
    }

    private static boolean visible(Member m) {
        return Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers()) && !Modifier.isFinal(m.getDeclaringClass().getModifiers());
    }

    private static String mods(Member m) {
        int keep = Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT | Modifier.PROTECTED;
        String s = Modifier.toString(m.getModifiers() & keep);
        if (m instanceof Method me && me.isDefault()) s = s.isEmpty() ? "default" : s + " default";
        return s.isEmpty() ? "" : s + " ";
    }

    private static String throwsClause(Type[] ex) {
        return ex.length == 0 ? "" : " throws " + names(ex);
    }

    private static String names(Type[] types) {
        return Arrays.stream(types).map(LibraryModuleProbe::name).collect(Collectors.joining(", "));
    }

    private static String name(Type t) {
        return t.getTypeName().replace("java.lang.", "");
    }

    /** Records a way to raw memory or a native capability in a type, its arguments included. */
    private static void check(String where, Type t) {
        if (t instanceof Class<?> c) {
            Class<?> e = c;
            while (e.isArray()) e = e.getComponentType();
            if (isCapability(e)) System.out.println("PROBLEM " + where + " hands out a " + e.getName());
        } else if (t instanceof ParameterizedType p) {
            check(where, p.getRawType());
            for (Type a : p.getActualTypeArguments()) check(where, a);
        } else if (t instanceof GenericArrayType g) {
            check(where, g.getGenericComponentType());
        } else if (t instanceof WildcardType w) {
            for (Type u : w.getUpperBounds()) check(where, u);
        } else if (t instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) check(where, b);
        }
    }

    private static boolean isCapability(Class<?> c) {
        for (Class<?> k : CAPABILITIES) if (k.isAssignableFrom(c)) return true;
        return c.getName().equals("sun.misc.Unsafe");
    }

    private static String rootCause(Throwable t) {
        while (t.getCause() != null) t = t.getCause();
        return t.getClass().getName() + " " + t.getMessage();
    }
}
