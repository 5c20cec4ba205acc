/* Loaded with LD_PRELOAD into a build of keypane whose functions each start a page (scripts/order-file
 * links it): makes the program's code non-executable, and on each fault writes the faulting address (the
 * first instruction run in that page: a function entered) to $KEYPANE_ORDER_TRACE, then lets the page run.
 * The addresses, in the order first run, are the functions start-up and typing use. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t low, high, base;
static int out = -1;

static int findCode(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    if (info->dlpi_name && info->dlpi_name[0]) return 0; /* the program itself has no name */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type == PT_LOAD && (header->p_flags & PF_X)) {
            low = (info->dlpi_addr + header->p_vaddr) & ~4095UL;
            high = (info->dlpi_addr + header->p_vaddr + header->p_memsz + 4095) & ~4095UL;
            base = info->dlpi_addr;
        }
    }
    return 1;
}

static void fault(int number, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    if (address < low || address >= high) { signal(number, SIG_DFL); return; }
    uint64_t offset = address - base;
    if (write(out, &offset, sizeof offset) != sizeof offset) _exit(70);
    mprotect((void *)(address & ~4095UL), 4096, PROT_READ | PROT_EXEC);
}

__attribute__((constructor(101))) static void start(void) {
    const char *path = getenv("KEYPANE_ORDER_TRACE");
    if (!path) return;
    out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (out < 0) return;
    dl_iterate_phdr(findCode, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = fault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &action, 0);
    mprotect((void *)low, high - low, PROT_READ);
}

/* A thread that blocks SIGSEGV would be killed by its first fault: keep it deliverable. */
static int unblocked(int (*real)(int, const sigset_t *, sigset_t *), int how, const sigset_t *set, sigset_t *old) {
    if (!set || how == SIG_UNBLOCK) return real(how, set, old);
    sigset_t copy = *set;
    sigdelset(&copy, SIGSEGV);
    return real(how, &copy, old);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    static int (*real)(int, const sigset_t *, sigset_t *);
    if (!real) real = (int (*)(int, const sigset_t *, sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");
    return unblocked(real, how, set, old);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    static int (*real)(int, const sigset_t *, sigset_t *);
    if (!real) real = (int (*)(int, const sigset_t *, sigset_t *))dlsym(RTLD_NEXT, "sigprocmask");
    return unblocked(real, how, set, old);
}
