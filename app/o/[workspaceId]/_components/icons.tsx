/** Small stroke icons (16px) for the navigation; decorative. */
const PATHS: Record<string, string> = {
  projects: "M3 4.5h4l1.5 1.5H13v6.5a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z",
  datasets:
    "M3 4.5c0-1 2.2-1.75 5-1.75s5 .75 5 1.75-2.2 1.75-5 1.75S3 5.5 3 4.5zm0 0v7c0 1 2.2 1.75 5 1.75s5-.75 5-1.75v-7M3 8c0 1 2.2 1.75 5 1.75S13 9 13 8",
  prompts: "M4 3.5h8a1 1 0 0 1 1 1v5.5a1 1 0 0 1-1 1H7l-3 2.5v-2.5a1 1 0 0 1-1-1V4.5a1 1 0 0 1 1-1zM5.5 6h5M5.5 8.25h3",
  queues: "M2.5 9.5h3l1 1.5h3l1-1.5h3M2.5 9.5l1.5-5h8l1.5 5v3a1 1 0 0 1-1 1h-9a1 1 0 0 1-1-1z",
  playground: "M5 3.5v9l7-4.5z",
  evaluators: "M8 2.5l1.6 3.3 3.6.5-2.6 2.5.6 3.6L8 10.7l-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z",
  charts: "M3 13h10M4.5 11V8M7.25 11V4.5M10 11V6.5M12.5 11V9",
  alerts: "M8 2.5a3.5 3.5 0 0 1 3.5 3.5v2.5l1.25 2.25h-9.5L4.5 8.5V6A3.5 3.5 0 0 1 8 2.5zM6.5 12.5a1.5 1.5 0 0 0 3 0",
  sql: "M3 4.5c0-1 2.2-1.75 5-1.75s5 .75 5 1.75-2.2 1.75-5 1.75S3 5.5 3 4.5zM3 4.5v7c0 1 2.2 1.75 5 1.75s5-.75 5-1.75v-7M3 8c0 1 2.2 1.75 5 1.75S13 9 13 8",
  settings:
    "M8 5.75a2.25 2.25 0 1 0 0 4.5 2.25 2.25 0 0 0 0-4.5zM8 2v1.5M8 12.5V14M2 8h1.5M12.5 8H14M3.75 3.75l1.05 1.05M11.2 11.2l1.05 1.05M3.75 12.25l1.05-1.05M11.2 4.8l1.05-1.05",
  chevron: "M5 6.5l3 3 3-3",
  updown: "M5.5 6 8 3.5 10.5 6M5.5 10 8 12.5 10.5 10",
  signout: "M9.5 3.5H12a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H9.5M6.5 10.5 4 8l2.5-2.5M4 8h6.5",
  check: "M3.5 8.5l3 3 6-6.5",
  sun: "M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.75v1.5M8 12.75v1.5M1.75 8h1.5M12.75 8h1.5M3.6 3.6l1.05 1.05M11.35 11.35l1.05 1.05M3.6 12.4l1.05-1.05M11.35 4.65l1.05-1.05",
  moon: "M12.5 9.5A5 5 0 0 1 6.5 3.5a5 5 0 1 0 6 6z",
  system: "M2.5 3.5h11v7.5h-11zM6 13.5h4M8 11v2.5",
  sidebar: "M2.5 3.5h11v9h-11zM6 3.5v9",
  thumb: "M5 7.5v6H2.5v-6zM5 7.5l2.5-5c1 0 1.75.75 1.5 2L8.5 7h4a1 1 0 0 1 1 1.2l-1 4.6a1 1 0 0 1-1 .7H5",
};

export function Icon({ name, size = 16 }: { name: keyof typeof PATHS | string; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={PATHS[name] ?? ""} />
    </svg>
  );
}
