import Link from "next/link";

export default function NotFound() {
  return (
    <div className="state" style={{ minHeight: "100vh" }}>
      <div className="state-title">Not found</div>
      <div>This page does not exist, or it belongs to a workspace you are not a member of.</div>
      <Link href="/" className="btn" style={{ marginTop: 8 }}>
        Go to your workspace
      </Link>
    </div>
  );
}
