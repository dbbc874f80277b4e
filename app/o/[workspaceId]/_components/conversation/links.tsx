"use client";

import { createContext, useContext, type ReactNode } from "react";
import styles from "./conversation.module.css";

/**
 * Ties tool calls to their results inside one conversation: element ids are prefixed per view, and
 * following a link highlights both ends.
 */
export interface ToolLinks {
  prefix: string;
  calls: Set<string>;
  results: Set<string>;
  /** Each tool call's tool name, so a result can say which tool answered. */
  names: Map<string, string>;
  active: string | null;
  setActive: (id: string | null) => void;
}

export const ToolLinksContext = createContext<ToolLinks>({
  prefix: "c",
  calls: new Set(),
  results: new Set(),
  names: new Map(),
  active: null,
  setActive: () => undefined,
});

export const useToolLinks = () => useContext(ToolLinksContext);

export const anchorId = (prefix: string, end: "call" | "result", id: string) => `${prefix}-${end}-${id.replace(/[^\w-]/g, "_")}`;

/** A link to the other end of a tool call; scrolls there and highlights the pair. */
export function JumpLink({ to, id, children }: { to: "call" | "result"; id: string; children: ReactNode }) {
  const links = useToolLinks();
  const target = anchorId(links.prefix, to, id);
  return (
    <a
      href={`#${target}`}
      className={styles.jump}
      onClick={(event) => {
        event.preventDefault();
        links.setActive(id);
        document.getElementById(target)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      }}
    >
      {children}
    </a>
  );
}
