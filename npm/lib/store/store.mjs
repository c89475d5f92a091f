// `import ... from "statecore-js/store"`: the same instance as `require("statecore-js/store")`.
import api from "./store.cjs";

export const { FileStore, PostgresStore } = api;
export default api;
