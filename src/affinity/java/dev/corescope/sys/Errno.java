package dev.corescope.sys;

/**
 * Linux errno values as a typed enum (x86-64 and arm64 share the asm-generic numbering), so a
 * failed native call carries its error as a value, not inside a message string. The table
 * follows {@code include/uapi/asm-generic/errno-base.h} and {@code errno.h}.
 */
public enum Errno {
    /** errno 1: Operation not permitted. */ EPERM(1, "Operation not permitted"),
    /** errno 2: No such file or directory. */ ENOENT(2, "No such file or directory"),
    /** errno 3: No such process. */ ESRCH(3, "No such process"),
    /** errno 4: Interrupted system call. */ EINTR(4, "Interrupted system call"),
    /** errno 5: I/O error. */ EIO(5, "I/O error"),
    /** errno 6: No such device or address. */ ENXIO(6, "No such device or address"),
    /** errno 7: Argument list too long. */ E2BIG(7, "Argument list too long"),
    /** errno 8: Exec format error. */ ENOEXEC(8, "Exec format error"),
    /** errno 9: Bad file number. */ EBADF(9, "Bad file number"),
    /** errno 10: No child processes. */ ECHILD(10, "No child processes"),
    /** errno 11: Try again. */ EAGAIN(11, "Try again"),
    /** errno 12: Out of memory. */ ENOMEM(12, "Out of memory"),
    /** errno 13: Permission denied. */ EACCES(13, "Permission denied"),
    /** errno 14: Bad address. */ EFAULT(14, "Bad address"),
    /** errno 15: Block device required. */ ENOTBLK(15, "Block device required"),
    /** errno 16: Device or resource busy. */ EBUSY(16, "Device or resource busy"),
    /** errno 17: File exists. */ EEXIST(17, "File exists"),
    /** errno 18: Cross-device link. */ EXDEV(18, "Cross-device link"),
    /** errno 19: No such device. */ ENODEV(19, "No such device"),
    /** errno 20: Not a directory. */ ENOTDIR(20, "Not a directory"),
    /** errno 21: Is a directory. */ EISDIR(21, "Is a directory"),
    /** errno 22: Invalid argument. */ EINVAL(22, "Invalid argument"),
    /** errno 23: File table overflow. */ ENFILE(23, "File table overflow"),
    /** errno 24: Too many open files. */ EMFILE(24, "Too many open files"),
    /** errno 25: Not a typewriter. */ ENOTTY(25, "Not a typewriter"),
    /** errno 26: Text file busy. */ ETXTBSY(26, "Text file busy"),
    /** errno 27: File too large. */ EFBIG(27, "File too large"),
    /** errno 28: No space left on device. */ ENOSPC(28, "No space left on device"),
    /** errno 29: Illegal seek. */ ESPIPE(29, "Illegal seek"),
    /** errno 30: Read-only file system. */ EROFS(30, "Read-only file system"),
    /** errno 31: Too many links. */ EMLINK(31, "Too many links"),
    /** errno 32: Broken pipe. */ EPIPE(32, "Broken pipe"),
    /** errno 33: Math argument out of domain of func. */ EDOM(33, "Math argument out of domain of func"),
    /** errno 34: Math result not representable. */ ERANGE(34, "Math result not representable"),
    /** errno 35: Resource deadlock would occur. */ EDEADLK(35, "Resource deadlock would occur"),
    /** errno 36: File name too long. */ ENAMETOOLONG(36, "File name too long"),
    /** errno 37: No record locks available. */ ENOLCK(37, "No record locks available"),
    /** errno 38: Invalid system call number. */ ENOSYS(38, "Invalid system call number"),
    /** errno 39: Directory not empty. */ ENOTEMPTY(39, "Directory not empty"),
    /** errno 40: Too many symbolic links encountered. */ ELOOP(40, "Too many symbolic links encountered"),
    /** errno 42: No message of desired type. */ ENOMSG(42, "No message of desired type"),
    /** errno 43: Identifier removed. */ EIDRM(43, "Identifier removed"),
    /** errno 44: Channel number out of range. */ ECHRNG(44, "Channel number out of range"),
    /** errno 45: Level 2 not synchronized. */ EL2NSYNC(45, "Level 2 not synchronized"),
    /** errno 46: Level 3 halted. */ EL3HLT(46, "Level 3 halted"),
    /** errno 47: Level 3 reset. */ EL3RST(47, "Level 3 reset"),
    /** errno 48: Link number out of range. */ ELNRNG(48, "Link number out of range"),
    /** errno 49: Protocol driver not attached. */ EUNATCH(49, "Protocol driver not attached"),
    /** errno 50: No CSI structure available. */ ENOCSI(50, "No CSI structure available"),
    /** errno 51: Level 2 halted. */ EL2HLT(51, "Level 2 halted"),
    /** errno 52: Invalid exchange. */ EBADE(52, "Invalid exchange"),
    /** errno 53: Invalid request descriptor. */ EBADR(53, "Invalid request descriptor"),
    /** errno 54: Exchange full. */ EXFULL(54, "Exchange full"),
    /** errno 55: No anode. */ ENOANO(55, "No anode"),
    /** errno 56: Invalid request code. */ EBADRQC(56, "Invalid request code"),
    /** errno 57: Invalid slot. */ EBADSLT(57, "Invalid slot"),
    /** errno 59: Bad font file format. */ EBFONT(59, "Bad font file format"),
    /** errno 60: Device not a stream. */ ENOSTR(60, "Device not a stream"),
    /** errno 61: No data available. */ ENODATA(61, "No data available"),
    /** errno 62: Timer expired. */ ETIME(62, "Timer expired"),
    /** errno 63: Out of streams resources. */ ENOSR(63, "Out of streams resources"),
    /** errno 64: Machine is not on the network. */ ENONET(64, "Machine is not on the network"),
    /** errno 65: Package not installed. */ ENOPKG(65, "Package not installed"),
    /** errno 66: Object is remote. */ EREMOTE(66, "Object is remote"),
    /** errno 67: Link has been severed. */ ENOLINK(67, "Link has been severed"),
    /** errno 68: Advertise error. */ EADV(68, "Advertise error"),
    /** errno 69: Srmount error. */ ESRMNT(69, "Srmount error"),
    /** errno 70: Communication error on send. */ ECOMM(70, "Communication error on send"),
    /** errno 71: Protocol error. */ EPROTO(71, "Protocol error"),
    /** errno 72: Multihop attempted. */ EMULTIHOP(72, "Multihop attempted"),
    /** errno 73: RFS specific error. */ EDOTDOT(73, "RFS specific error"),
    /** errno 74: Not a data message. */ EBADMSG(74, "Not a data message"),
    /** errno 75: Value too large for defined data type. */ EOVERFLOW(75, "Value too large for defined data type"),
    /** errno 76: Name not unique on network. */ ENOTUNIQ(76, "Name not unique on network"),
    /** errno 77: File descriptor in bad state. */ EBADFD(77, "File descriptor in bad state"),
    /** errno 78: Remote address changed. */ EREMCHG(78, "Remote address changed"),
    /** errno 79: Can not access a needed shared library. */ ELIBACC(79, "Can not access a needed shared library"),
    /** errno 80: Accessing a corrupted shared library. */ ELIBBAD(80, "Accessing a corrupted shared library"),
    /** errno 81: .lib section in a.out corrupted. */ ELIBSCN(81, ".lib section in a.out corrupted"),
    /** errno 82: Attempting to link in too many shared libraries. */ ELIBMAX(82, "Attempting to link in too many shared libraries"),
    /** errno 83: Cannot exec a shared library directly. */ ELIBEXEC(83, "Cannot exec a shared library directly"),
    /** errno 84: Illegal byte sequence. */ EILSEQ(84, "Illegal byte sequence"),
    /** errno 85: Interrupted system call should be restarted. */ ERESTART(85, "Interrupted system call should be restarted"),
    /** errno 86: Streams pipe error. */ ESTRPIPE(86, "Streams pipe error"),
    /** errno 87: Too many users. */ EUSERS(87, "Too many users"),
    /** errno 88: Socket operation on non-socket. */ ENOTSOCK(88, "Socket operation on non-socket"),
    /** errno 89: Destination address required. */ EDESTADDRREQ(89, "Destination address required"),
    /** errno 90: Message too long. */ EMSGSIZE(90, "Message too long"),
    /** errno 91: Protocol wrong type for socket. */ EPROTOTYPE(91, "Protocol wrong type for socket"),
    /** errno 92: Protocol not available. */ ENOPROTOOPT(92, "Protocol not available"),
    /** errno 93: Protocol not supported. */ EPROTONOSUPPORT(93, "Protocol not supported"),
    /** errno 94: Socket type not supported. */ ESOCKTNOSUPPORT(94, "Socket type not supported"),
    /** errno 95: Operation not supported on transport endpoint. */ EOPNOTSUPP(95, "Operation not supported on transport endpoint"),
    /** errno 96: Protocol family not supported. */ EPFNOSUPPORT(96, "Protocol family not supported"),
    /** errno 97: Address family not supported by protocol. */ EAFNOSUPPORT(97, "Address family not supported by protocol"),
    /** errno 98: Address already in use. */ EADDRINUSE(98, "Address already in use"),
    /** errno 99: Cannot assign requested address. */ EADDRNOTAVAIL(99, "Cannot assign requested address"),
    /** errno 100: Network is down. */ ENETDOWN(100, "Network is down"),
    /** errno 101: Network is unreachable. */ ENETUNREACH(101, "Network is unreachable"),
    /** errno 102: Network dropped connection because of reset. */ ENETRESET(102, "Network dropped connection because of reset"),
    /** errno 103: Software caused connection abort. */ ECONNABORTED(103, "Software caused connection abort"),
    /** errno 104: Connection reset by peer. */ ECONNRESET(104, "Connection reset by peer"),
    /** errno 105: No buffer space available. */ ENOBUFS(105, "No buffer space available"),
    /** errno 106: Transport endpoint is already connected. */ EISCONN(106, "Transport endpoint is already connected"),
    /** errno 107: Transport endpoint is not connected. */ ENOTCONN(107, "Transport endpoint is not connected"),
    /** errno 108: Cannot send after transport endpoint shutdown. */ ESHUTDOWN(108, "Cannot send after transport endpoint shutdown"),
    /** errno 109: Too many references: cannot splice. */ ETOOMANYREFS(109, "Too many references: cannot splice"),
    /** errno 110: Connection timed out. */ ETIMEDOUT(110, "Connection timed out"),
    /** errno 111: Connection refused. */ ECONNREFUSED(111, "Connection refused"),
    /** errno 112: Host is down. */ EHOSTDOWN(112, "Host is down"),
    /** errno 113: No route to host. */ EHOSTUNREACH(113, "No route to host"),
    /** errno 114: Operation already in progress. */ EALREADY(114, "Operation already in progress"),
    /** errno 115: Operation now in progress. */ EINPROGRESS(115, "Operation now in progress"),
    /** errno 116: Stale file handle. */ ESTALE(116, "Stale file handle"),
    /** errno 117: Structure needs cleaning. */ EUCLEAN(117, "Structure needs cleaning"),
    /** errno 118: Not a XENIX named type file. */ ENOTNAM(118, "Not a XENIX named type file"),
    /** errno 119: No XENIX semaphores available. */ ENAVAIL(119, "No XENIX semaphores available"),
    /** errno 120: Is a named type file. */ EISNAM(120, "Is a named type file"),
    /** errno 121: Remote I/O error. */ EREMOTEIO(121, "Remote I/O error"),
    /** errno 122: Quota exceeded. */ EDQUOT(122, "Quota exceeded"),
    /** errno 123: No medium found. */ ENOMEDIUM(123, "No medium found"),
    /** errno 124: Wrong medium type. */ EMEDIUMTYPE(124, "Wrong medium type"),
    /** errno 125: Operation Canceled. */ ECANCELED(125, "Operation Canceled"),
    /** errno 126: Required key not available. */ ENOKEY(126, "Required key not available"),
    /** errno 127: Key has expired. */ EKEYEXPIRED(127, "Key has expired"),
    /** errno 128: Key has been revoked. */ EKEYREVOKED(128, "Key has been revoked"),
    /** errno 129: Key was rejected by service. */ EKEYREJECTED(129, "Key was rejected by service"),
    /** errno 130: Owner died. */ EOWNERDEAD(130, "Owner died"),
    /** errno 131: State not recoverable. */ ENOTRECOVERABLE(131, "State not recoverable"),
    /** errno 132: Operation not possible due to RF-kill. */ ERFKILL(132, "Operation not possible due to RF-kill"),
    /** errno 133: Memory page has hardware error. */ EHWPOISON(133, "Memory page has hardware error"),
    /** A number this table does not know. */
    UNKNOWN(-1, "unknown error");

    private static final Errno[] BY_NUMBER = new Errno[256];

    static {
        for (Errno e : values()) if (e.number > 0 && e.number < BY_NUMBER.length) BY_NUMBER[e.number] = e;
    }

    private final int number;
    private final String description;

    Errno(int number, String description) {
        this.number = number;
        this.description = description;
    }

    /** {@return the errno number, e.g. 22 for {@link #EINVAL}; -1 for {@link #UNKNOWN}} */
    public int number() {
        return number;
    }

    /**
     * {@return the kernel's text for it, e.g. {@code Invalid argument}} That is the comment in its
     * {@code errno.h}; glibc's {@code strerror} words it slightly differently for a few.
     */
    public String description() {
        return description;
    }

    /**
     * {@return the constant for an errno number, or {@link #UNKNOWN} for a number this table does not have}
     *
     * @param number the errno value, as a native call's captured {@code errno} gives it
     */
    public static Errno of(int number) {
        Errno e = number > 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
        return e == null ? UNKNOWN : e;
    }
}
