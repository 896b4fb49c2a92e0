import { Command, CommanderError } from 'commander';
import { PARAPH_VERSION } from '../version.js';
import { auditCommand } from './audit.js';
import { clockCommand } from './clock.js';
import { emailsCommand } from './emails.js';
import { forceCommands } from './force.js';
import { keysCommand } from './keys.js';
import { requestsCommand } from './requests.js';
import { EXIT_OK, EXIT_USAGE, exitCodeOf, messageOf, processIo } from './output.js';
import { serveCommand } from './serve.js';
import { signCommand } from './sign.js';
import { webhooksCommand } from './webhooks.js';
export function buildProgram(io, env) {
    const program = new Command('paraph')
        .description('A local sandbox of an e-signature API')
        .version(PARAPH_VERSION)
        .showHelpAfterError()
        .exitOverride()
        .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
        .addCommand(serveCommand(io, env))
        .addCommand(keysCommand(io, env))
        .addCommand(requestsCommand(io, env))
        .addCommand(clockCommand(io, env))
        .addCommand(webhooksCommand(io, env))
        .addCommand(emailsCommand(io, env))
        .addCommand(signCommand(io, env))
        .addCommand(auditCommand(io, env));
    for (const command of forceCommands(io, env))
        program.addCommand(command);
    for (const command of program.commands)
        applyRecursively(command, io);
    return program;
}
function applyRecursively(command, io) {
    command.exitOverride().showHelpAfterError().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    for (const sub of command.commands)
        applyRecursively(sub, io);
}
/** Runs the CLI and answers its exit code: 0 success, 1 error, 2 bad usage. */
export async function run(argv, env, io = processIo) {
    const program = buildProgram(io, env);
    try {
        await program.parseAsync(argv);
        return EXIT_OK;
    }
    catch (error) {
        if (error instanceof CommanderError) {
            // Commander already printed its message (help, version, or what was wrong).
            return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) ? EXIT_OK : EXIT_USAGE;
        }
        io.err(`paraph: ${messageOf(error)}`);
        return exitCodeOf(error);
    }
}
export async function main() {
    process.exitCode = await run(process.argv, process.env);
}
//# sourceMappingURL=index.js.map