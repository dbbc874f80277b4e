"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ThemeChoice, ThemeToggle } from "../../../_theme/theme-choice";
import { Icon } from "./icons";

export interface WorkspaceChoice {
  workspaceId: string;
  name: string;
  role: string;
}

const NAV = [
  { href: "projects", label: "Projects", icon: "projects" },
  { href: "datasets", label: "Datasets", icon: "datasets" },
  { href: "queues", label: "Annotation queues", icon: "queues" },
  { href: "evaluators", label: "Evaluators", icon: "evaluators" },
  { href: "prompts", label: "Prompts", icon: "prompts" },
  { href: "playground", label: "Playground", icon: "playground" },
  { href: "charts", label: "Charts", icon: "charts" },
  { href: "alerts", label: "Alerts", icon: "alerts" },
  { href: "sql", label: "SQL", icon: "sql" },
  { href: "settings", label: "Settings", icon: "settings" },
];

const initial = (text: string) => (text.trim()[0] ?? "?").toUpperCase();

/** Closes a popup on an outside click or Escape. */
function useDismiss(open: boolean, close: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, close]);
  return ref;
}

function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: WorkspaceChoice[] }) {
  const [open, setOpen] = useState(false);
  const ref = useDismiss(open, () => setOpen(false));
  const router = useRouter();
  const active = workspaces.find((w) => w.workspaceId === current);
  const name = active?.name ?? "Workspace";
  return (
    <div className="menu-wrap" ref={ref}>
      <button
        type="button"
        className="menu-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="workspace-switcher"
      >
        <span className="avatar ws-avatar">{initial(name)}</span>
        <span className="grow">{name}</span>
        <span className="muted">
          <Icon name="updown" size={14} />
        </span>
      </button>
      {open ? (
        <div className="menu" role="listbox" aria-label="Workspaces">
          <div className="menu-label">Workspaces</div>
          {workspaces.map((w) => (
            <button
              type="button"
              key={w.workspaceId}
              role="option"
              aria-selected={w.workspaceId === current}
              className="menu-item"
              onClick={() => {
                setOpen(false);
                router.push(`/o/${w.workspaceId}/projects`);
              }}
            >
              <span className="avatar ws-avatar">{initial(w.name)}</span>
              <span className="grow truncate">{w.name}</span>
              <span className="faint" style={{ fontSize: 11 }}>
                {w.role}
              </span>
              {w.workspaceId === current ? <Icon name="check" size={14} /> : null}
            </button>
          ))}
          <div className="menu-sep" />
          <button
            type="button"
            className="menu-item"
            data-testid="new-workspace"
            onClick={() => {
              setOpen(false);
              router.push("/new-workspace");
            }}
          >
            <span className="grow">New workspace…</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}

function UserMenu({ user }: { user: { email: string; name: string | null } }) {
  const [open, setOpen] = useState(false);
  const ref = useDismiss(open, () => setOpen(false));
  const label = user.name || user.email;
  return (
    <div className="menu-wrap" ref={ref}>
      <button
        type="button"
        className="menu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="user-menu"
      >
        <span className="avatar">{initial(label)}</span>
        <span className="grow">{label}</span>
        <span className="muted">
          <Icon name="updown" size={14} />
        </span>
      </button>
      {open ? (
        <div className="menu menu-up" role="menu">
          <div className="menu-label truncate">{user.email}</div>
          <div className="menu-sep" />
          <div className="menu-row">
            <span className="muted">Theme</span>
            <ThemeChoice />
          </div>
          <div className="menu-sep" />
          <button type="button" role="menuitem" className="menu-item" onClick={() => signOut({ callbackUrl: "/signin" })}>
            <Icon name="signout" size={14} /> Sign out
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The workspace frame: sidebar (switcher, navigation, user menu) and the page. */
export function Shell({
  workspaceId,
  workspaces,
  user,
  children,
}: {
  workspaceId: string;
  workspaces: WorkspaceChoice[];
  user: { email: string; name: string | null };
  children: ReactNode;
}) {
  const pathname = usePathname() ?? "";
  const base = `/o/${workspaceId}`;
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark">T</span>
          <span className="brand-name">Tracelight</span>
        </div>
        <WorkspaceSwitcher current={workspaceId} workspaces={workspaces} />
        <nav aria-label="Main" className="col" style={{ gap: 1, marginTop: 8 }}>
          {NAV.map((item) => {
            const href = `${base}/${item.href}`;
            const active = pathname === href || pathname.startsWith(`${href}/`);
            return (
              <Link key={item.href} href={href} className="nav-link" aria-current={active ? "page" : undefined} title={item.label}>
                <Icon name={item.icon} />
                <span className="nav-label">{item.label}</span>
              </Link>
            );
          })}
        </nav>
        <div className="sidebar-spacer" />
        <div className="sidebar-foot">
          <UserMenu user={user} />
          <ThemeToggle icon={(name) => <Icon name={name} />} />
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}
