import Basics
import KeyboardModel

/// keypane(1), the manual page, made from the same command and option declarations as `--help`, so the
/// two cannot disagree. `keypane --manual` prints it; `make deb` installs it.
enum Manual {
    static var page: String {
        var page = """
            .TH KEYPANE 1 "" "keypane \(Keypane.version)" "User Commands"
            .SH NAME
            keypane \\- an on\\-screen keyboard for X11, after the iOS system keyboard
            .SH SYNOPSIS
            .B keypane
            .RB [ run ]
            .RI [ options ]
            .br
            .B keypane
            .I command
            .RI [ options ]
            .SH DESCRIPTION
            \(escape("""
                Keypane shows a keyboard docked at the bottom of the screen that types, through XTest, into \
                whichever window has the focus, without ever taking it. There is a keyboard for each kind of \
                text (\(KeyboardType.allNames)), a Return key labelled for its job, a Globe key that cycles \
                the enabled keyboards, an input click on every key, and, as on iOS, autocapitalization, a \
                period after two spaces, and smart quotes and dashes.
                """))
            .SH COMMANDS

            """
        for command in Keypane.commands {
            page += ".SS \(escape(command.name))\(command.name == "run" ? " (the default)" : "")"
                + (command.operand.map { " \\fI\(escape($0))\\fR" } ?? "") + "\n"
            page += escape(command.abstract) + "\n"
            if let discussion = command.discussion { page += ".PP\n" + escape(discussion) + "\n" }
            for option in command.options {
                let flag = option.value == nil || option.offValue ? "\\-\\-[no\\-]" : "\\-\\-"
                page += ".TP\n.B \(flag)\(escape(option.name))" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? "") + "\n"
                page += escape(option.help) + "\n"
            }
        }
        page += """
            .SH CONFIGURATION
            \(escape("""
                $XDG_CONFIG_HOME/keypane/config (else ~/.config/keypane/config) takes the options of run, one \
                a line, as name = value; flags take yes or no, on or off, true or false, 1 or 0; # starts a \
                comment. Options on the command line override it. A line that cannot be used is named with \
                its file and line, and the keyboard starts with its default for that setting.
                """))
            .PP
            .nf
            keyboards = default, email, number\\-pad
            theme = dark
            sound = off
            .fi
            .PP
            \(escape("""
                The settings panel (Keyboard Settings, last in the Globe key's list, or keypane settings) \
                changes this file as you change a setting in it: that setting's line alone, its comment, \
                the other lines and the comments kept as they were; the file is written beside and renamed \
                over, mode 0600.
                """))
            .PP
            \(escape("""
                Layout files in $XDG_CONFIG_HOME/keypane/layouts/ add keyboards, or replace the bundled \
                keyboard of the same name; one that cannot be read is named and left out.
                """))
            .SH SIGNALS
            \(escape("""
                SIGUSR1 hides the keyboard and SIGUSR2 shows it. SIGINT, SIGTERM and SIGHUP end it, with \
                no key left down and the keymap as it was.
                """))
            .SH FILES
            .TP
            .I $XDG_RUNTIME_DIR/keypane\\-N.socket
            \(escape("""
                The control socket of the keyboard on display :N (mode 0600; commands from the same user \
                only). Without $XDG_RUNTIME_DIR, /tmp/keypane-UID/ holds it.
                """))
            .TP
            .I /etc/xdg/keypane/locked
            \(escape("""
                Settings an administrator locks (the first keypane/locked of $XDG_CONFIG_DIRS), in the \
                settings file's form: each has its value there, which the user's file cannot change and the \
                settings panel shows greyed; settings-panel = off takes the panel away.
                """))
            .TP
            .I $XDG_STATE_HOME/keypane/floating\\-position
            Where the floating keyboard was left.
            .TP
            .I $XDG_DATA_HOME/keypane/learned\\-en
            \(escape("""
                The words and word pairs learned from your typing, and where your fingers land (mode 0600; \
                never from password, address or terminal fields). keypane forget removes it.
                """))
            .TP
            .I $XDG_DATA_HOME/keypane/replacements
            \(escape("""
                Your text replacements, a shortcut and its phrase a line (mode 0600); keypane replace lists \
                and changes them.
                """))
            .TP
            .I $XDG_CACHE_HOME/keypane/fonts, $XDG_CACHE_HOME/keypane/frame
            \(escape("""
                The labels' font, as the font configuration chose it, and a picture of the keyboard as it \
                first appeared (mode 0600), which the next start shows while its fonts are set up when its \
                first frame is the same. Either may be deleted at any time.
                """))
            .TP
            .I /usr/share/keypane/
            The bundled layouts, click sounds and dictionaries.
            .SH EXAMPLES
            A kiosk script:
            .PP
            .nf
            keypane &
            keypane set \\-\\-type email \\-\\-return\\-key go
            keypane show
            keypane type "someone@example.com"
            keypane hide
            .fi
            .SH EXIT STATUS
            0 on success, 1 on an error (said in one line on standard error), 64 for a command line that cannot \
            be understood.

            """
        return page
    }

    /// Text as roff shows it: backslashes and hyphens escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n.br\n")
    }
}
