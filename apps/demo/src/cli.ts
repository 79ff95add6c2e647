import { main } from './main.js';

// Exit explicitly: an embedded on-disk SurrealDB engine keeps the process alive after close().
main(process.argv.slice(2)).then((code) => process.exit(code));
