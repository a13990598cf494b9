import { createStore } from "jotai";

/**
 * The one jotai store of the app. React reads it through `<Provider store={appStore}>`; code outside
 * React (the API client's 401 rule, the session restore) reads and writes the same atoms through it.
 */
export const appStore = createStore();
export type AppStore = typeof appStore;
