// The route table as React Router's Vite plugin serves it (a `ServerBuild`);
// server/serve.ts imports it and casts it.
declare module "virtual:react-router/server-build";
