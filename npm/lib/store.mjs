// `import ... from "statecore/store"`: the same instance as `require("statecore/store")`.
import api from "./store.cjs";

export const { FileStore, PostgresStore } = api;
export default api;
